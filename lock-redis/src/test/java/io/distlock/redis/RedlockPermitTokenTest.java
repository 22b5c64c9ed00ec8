package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.tck.fixture.ClassFixture;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Fencing tokens of Redlock permits granted at the same moment on two majorities that share one master: A and C
 * far ahead of B, client one granted by {A, B} and client two by {B, C}, client one's write-back to B held by a
 * proxy until client two was granted. Two valid holders must not share a token, and a later permit is larger,
 * also after the name took a smaller limit; a counter of an earlier version (not a whole step) is rounded up, and
 * one that holds no fencing token (an operator's value) counts as none, for a grant and a re-sent one.
 */
class RedlockPermitTokenTest {

    private static final long AHEAD = 4_000_000_000_000_000L; // µs, far ahead of every master's clock
    private static final LockOptions LONG_LEASE = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(60));
    private static final RedlockPermits KEYS = new RedlockPermits(null, new RedlockQuorum(3),
            new RedisKeys("distlock:"), RedisOptions.defaults(), null, null);
    @RegisterExtension
    static final ClassFixture<SplitMajorities> split = new ClassFixture<>(SplitMajorities::new);

    @Test
    void permitsGrantedAtOnceOnMajoritiesSharingOneMasterGetDistinctTokens() throws Exception {
        String name = "granted-at-once";
        SplitMajorities.setCounter(split.get().a(), KEYS.fence(name), AHEAD);
        SplitMajorities.setCounter(split.get().c(), KEYS.fence(name), AHEAD);
        split.get().proxyToB().holdNext(RedisScripts.RAISE_FENCE.sha());
        CompletableFuture<Lease> first = CompletableFuture.supplyAsync(
                () -> split.get().one().semaphore(name, 2, LONG_LEASE).tryAcquire().orElseThrow());
        assertThat(split.get().proxyToB().awaitHeld(60, TimeUnit.SECONDS))
                .as("client one granted by A and B, its write-back to B held").isTrue();
        Lease second = split.get().two().semaphore(name, 2, LONG_LEASE).tryAcquire()
                .orElseThrow(() -> new AssertionError("one slot is free on B and C"));
        split.get().proxyToB().releaseHeld();
        Lease firstLease = first.get(60, TimeUnit.SECONDS);

        assertThat(firstLease.isValid()).isTrue();
        assertThat(second.isValid()).isTrue();
        assertThat(second.fencingToken()).as("tokens of two valid holders").isNotEqualTo(firstLease.fencingToken());
        long highest = Math.max(firstLease.fencingToken(), second.fencingToken());
        firstLease.release();
        second.release();
        try (var all = split.get().openOnAll()) {
            Lease next = all.semaphore(name, 2, LONG_LEASE).tryAcquire().orElseThrow();
            assertThat(next.fencingToken()).as("a permit granted after both").isGreaterThan(highest);
            next.release();
        }
    }

    @Test
    void aCounterLeftByAnEarlierVersionIsRoundedUpPastItself() {
        String name = "earlier-counter";
        for (RedisServer master : List.of(split.get().a(), split.get().b(), split.get().c())) {
            SplitMajorities.setCounter(master, KEYS.fence(name), AHEAD + 42); // not a multiple of the step
        }
        try (var all = split.get().openOnAll()) {
            Lease permit = all.semaphore(name, 1, LONG_LEASE).tryAcquire().orElseThrow();
            assertThat(permit.fencingToken()).as("slot 1 of 1: the counter itself").isEqualTo(AHEAD + 100);
            permit.release();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"not a number", "nan", "inf", "-inf", "1e19", "-5", "9007199254740993",
            "9223372036854775807"})
    void aCounterThatHoldsNoFencingTokenCountsAsNone(String bad) {
        String name = "bad-counter-" + bad;
        List<RedisServer> masters = List.of(split.get().a(), split.get().b(), split.get().c());
        long clockMicros;
        try (RedisProbe probe = new RedisProbe(split.get().a().port())) {
            clockMicros = probe.serverClockMicros();
        }
        masters.forEach(m -> setRaw(m, KEYS.fence(name), bad));
        try (var all = split.get().openOnAll()) {
            Lease first = all.semaphore(name, 2, LONG_LEASE).tryAcquire()
                    .orElseThrow(() -> new AssertionError("refused over counter '" + bad + "'"));
            assertThat(first.fencingToken()).as("first token over counter '%s'", bad)
                    .isGreaterThanOrEqualTo(clockMicros).isLessThan(1L << 53);
            Lease second = all.semaphore(name, 2, LONG_LEASE).tryAcquire().orElseThrow();
            assertThat(second.fencingToken()).as("second token").isGreaterThan(first.fencingToken())
                    .isLessThan(1L << 53);
            assertThat(all.semaphore(name, 2, LONG_LEASE).availablePermits()).isZero();
            first.release();
            second.release();
            assertThat(all.semaphore(name, 2, LONG_LEASE).availablePermits()).isEqualTo(2);
            Lease third = all.semaphore(name, 2, LONG_LEASE).tryAcquire().orElseThrow();
            assertThat(third.fencingToken()).as("a later grant").isGreaterThan(second.fencingToken());
            third.release();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"not a number", "nan", "inf", "1e19", "-5", "9007199254740993"})
    void aReSentSlotGrantOverACounterThatHoldsNoFencingTokenGetsAClockCounter(String bad) {
        String name = "resent-bad-counter-" + bad;
        try (RedisProbe probe = new RedisProbe(split.get().a().port())) {
            List<String> keys = List.of(KEYS.slot(name, 1), KEYS.limit(name), KEYS.fence(name));
            List<String> args = List.of("a|me", "60000", "1", "0", Integer.toString(RedlockPermits.TOKEN_STEP));
            long clockMicros = probe.serverClockMicros();
            List<?> granted = (List<?>) RedlockPermitScripts.ACQUIRE.run(probe.raw(), keys, args);
            assertThat(granted.get(0)).isEqualTo(1L);
            probe.raw().set(KEYS.fence(name), bad); // the counter spoiled under the slot's holder
            List<?> again = (List<?>) RedlockPermitScripts.ACQUIRE.run(probe.raw(), keys, args);
            assertThat(again.get(0)).as("re-sent grant").isEqualTo(1L);
            assertThat((Long) again.get(1)).as("re-sent grant's counter over counter '%s'", bad)
                    .isGreaterThanOrEqualTo(clockMicros).isLessThan(1L << 53);
            probe.raw().del(KEYS.slot(name, 1), KEYS.limit(name));
        }
    }

    @Test
    void aSlotGrantWhoseNextStepReachesTwoToThe53IsRefusedAndTakesBackItsSlot() {
        String name = "exhausted-counter";
        try (RedisProbe probe = new RedisProbe(split.get().a().port())) {
            List<String> keys = List.of(KEYS.slot(name, 1), KEYS.limit(name), KEYS.fence(name));
            List<String> args = List.of("a|me", "60000", "1", "0", Integer.toString(RedlockPermits.TOKEN_STEP));
            long lastStep = (1L << 53) / RedlockPermits.TOKEN_STEP * RedlockPermits.TOKEN_STEP; // below 2^53
            probe.raw().set(KEYS.fence(name), Long.toString(lastStep - 1));
            List<?> granted = (List<?>) RedlockPermitScripts.ACQUIRE.run(probe.raw(), keys, args);
            assertThat(granted).as("the last whole step below 2^53").isEqualTo(List.of(1L, lastStep));
            probe.raw().del(KEYS.slot(name, 1), KEYS.limit(name));
            assertThatThrownBy(() -> RedlockPermitScripts.ACQUIRE.run(probe.raw(), keys, args))
                    .as("the grant whose step would reach 2^53").hasMessageContaining("is exhausted");
            assertThat(probe.raw().exists(KEYS.slot(name, 1))).as("the slot after the refusal").isFalse();
            assertThat(probe.raw().exists(KEYS.limit(name))).as("the limit key after the refusal").isFalse();
            assertThat(probe.raw().get(KEYS.fence(name))).isEqualTo(Long.toString(lastStep));
            probe.raw().del(KEYS.fence(name));
        }
    }

    private static void setRaw(RedisServer master, String key, String value) {
        try (RedisProbe probe = new RedisProbe(master.port())) {
            probe.raw().set(key, value);
        }
    }

    @Test
    void aPermitAfterTheNameTookASmallerLimitStillHasALargerToken() {
        String name = "smaller-limit";
        List<RedisServer> masters = List.of(split.get().a(), split.get().b(), split.get().c());
        masters.forEach(m -> occupy(m, name, "other|holder"));
        try (var all = split.get().openOnAll()) {
            Lease third = all.semaphore(name, 3, LONG_LEASE).tryAcquire()
                    .orElseThrow(() -> new AssertionError("slot 3 is free"));
            third.release();
            masters.forEach(m -> occupy(m, name, null));
            Lease only = all.semaphore(name, 1, LONG_LEASE).tryAcquire().orElseThrow();
            assertThat(only.fencingToken()).as("slot 1 of 1 after slot 3 of 3").isGreaterThan(third.fencingToken());
            only.release();
        }
    }

    /** Puts {@code value} in slots 1 and 2 of limit 3 on {@code master} (null: removes them and the limit). */
    private static void occupy(RedisServer master, String name, String value) {
        try (RedisProbe probe = new RedisProbe(master.port())) {
            if (value == null) {
                probe.raw().del(KEYS.slot(name, 1), KEYS.slot(name, 2), KEYS.limit(name));
            } else {
                probe.raw().psetex(KEYS.slot(name, 1), 60_000, value);
                probe.raw().psetex(KEYS.slot(name, 2), 60_000, value);
                probe.raw().psetex(KEYS.limit(name), 60_000, "3");
            }
        }
    }
}
