package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.tck.fixture.ClassFixture;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Fencing tokens of Redlock locks granted on two majorities that share one master only, B, with A and C far ahead
 * of B: the write-back to B puts the later grant past the earlier one, and a grant whose write-back is still on its
 * way blocks the other majority on B itself, so two lock grants cannot tie as two permits on different slots could;
 * a write-back that meets a counter holding no fencing token (an operator's value) raises it as it raises none.
 */
class RedlockLockTokenTest {

    private static final long AHEAD = 4_000_000_000_000_000L; // µs, far ahead of every master's clock
    private static final LockOptions LONG_LEASE = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(60));
    private static final RedisKeys KEYS = new RedisKeys("distlock:");
    @RegisterExtension
    static final ClassFixture<SplitMajorities> split = new ClassFixture<>(SplitMajorities::new);

    private static void counterAheadOnAAndC(String name) {
        SplitMajorities.setCounter(split.get().a(), KEYS.fence(name), AHEAD);
        SplitMajorities.setCounter(split.get().c(), KEYS.fence(name), AHEAD);
    }

    @Test
    void successiveGrantsOnMajoritiesSharingOneMasterIncrease() {
        String name = "successive";
        counterAheadOnAAndC(name);
        Lease first = split.get().one().lock(name, LONG_LEASE).tryAcquire().orElseThrow();
        assertThat(first.fencingToken()).as("A's counter + 1").isEqualTo(AHEAD + 1);
        first.release();
        Lease second = split.get().two().lock(name, LONG_LEASE).tryAcquire().orElseThrow();
        assertThat(second.fencingToken()).as("B raised to the first token, then counted").isGreaterThan(AHEAD + 1);
        second.release();
    }

    @Test
    void aGrantWhoseWriteBackIsOnItsWayBlocksTheOtherMajority() throws Exception {
        String name = "write-back-on-its-way";
        counterAheadOnAAndC(name);
        split.get().proxyToB().holdNext(RedisScripts.RAISE_FENCE.sha());
        CompletableFuture<Lease> first = CompletableFuture.supplyAsync(
                () -> split.get().one().lock(name, LONG_LEASE).tryAcquire().orElseThrow());
        assertThat(split.get().proxyToB().awaitHeld(60, TimeUnit.SECONDS))
                .as("client one granted by A and B, its write-back to B held").isTrue();
        assertThat(split.get().two().lock(name, LONG_LEASE).tryAcquire()).as("B holds client one's key").isEmpty();
        split.get().proxyToB().releaseHeld();
        Lease firstLease = first.get(60, TimeUnit.SECONDS);
        firstLease.release();
        Lease second = split.get().two().lock(name, LONG_LEASE).tryAcquire().orElseThrow();
        assertThat(second.fencingToken()).isGreaterThan(firstLease.fencingToken());
        second.release();
    }

    @ParameterizedTest
    @ValueSource(strings = {"not a number", "nan", "inf", "-inf", "1e19", "-5", "9007199254740993",
            "9223372036854775807"})
    void aWriteBackOverACounterThatHoldsNoFencingTokenRaisesIt(String bad) throws Exception {
        String name = "write-back-over-" + bad;
        counterAheadOnAAndC(name);
        split.get().proxyToB().holdNext(RedisScripts.RAISE_FENCE.sha());
        CompletableFuture<java.util.Optional<Lease>> first = CompletableFuture.supplyAsync(
                () -> split.get().one().lock(name, LONG_LEASE).tryAcquire());
        assertThat(split.get().proxyToB().awaitHeld(60, TimeUnit.SECONDS))
                .as("client one granted by A and B, its write-back to B held").isTrue();
        try (RedisProbe probe = new RedisProbe(split.get().b().port())) {
            probe.raw().set(KEYS.fence(name), bad); // an operator's value, before the write-back arrives
        }
        split.get().proxyToB().releaseHeld();
        Lease firstLease = first.get(60, TimeUnit.SECONDS)
                .orElseThrow(() -> new AssertionError("client one refused: its write-back over '" + bad + "' failed"));
        firstLease.release();
        Lease second = split.get().two().lock(name, LONG_LEASE).tryAcquire().orElseThrow();
        assertThat(second.fencingToken()).as("B and C's grant after the write-back over '%s'", bad)
                .isGreaterThan(firstLease.fencingToken());
        second.release();
    }
}
