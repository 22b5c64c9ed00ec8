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

/**
 * A Redlock waiter interrupted while one of its attempts is in flight (a request to B held by a proxy) gets
 * {@link InterruptedException}, as the contract says, not {@code StoreUnavailableException}, and its attempt is
 * still answered and released on every master it reached, so nothing it took stays behind.
 */
class RedlockInterruptTest {

    private static final LockOptions LONG_LEASE = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(60));
    private static final RedisKeys KEYS = new RedisKeys("distlock:");
    private static final RedlockPermits PERMIT_KEYS = new RedlockPermits(null, new RedlockQuorum(3), KEYS,
            RedisOptions.defaults(), null, null);
    @RegisterExtension
    static final ClassFixture<SplitMajorities> split = new ClassFixture<>(SplitMajorities::new);

    /** Runs {@code waiting} on a thread of its own, interrupts it while the proxy holds its request, then lets go. */
    private static Throwable interruptInFlight(String heldScriptSha, Waiting waiting) throws Exception {
        split.get().proxyToB().holdNext(heldScriptSha);
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread waiter = new Thread(() -> {
            try {
                waiting.run();
                outcome.complete(new AssertionError("acquired while held elsewhere"));
            } catch (Throwable t) {
                outcome.complete(t);
            }
        }, "interrupted-waiter");
        waiter.start();
        assertThat(split.get().proxyToB().awaitHeld(60, TimeUnit.SECONDS)).as("the waiter's attempt is in flight")
                .isTrue();
        waiter.interrupt();
        split.get().proxyToB().releaseHeld();
        return outcome.get(60, TimeUnit.SECONDS);
    }

    @Test
    void aLockWaiterInterruptedDuringAnAttemptGetsInterruptedException() throws Exception {
        String name = "interrupted-lock";
        Lease held = split.get().two().lock(name, LONG_LEASE).tryAcquire().orElseThrow(); // on B and C
        Throwable outcome = interruptInFlight(RedisScripts.ACQUIRE.sha(),
                () -> split.get().one().lock(name, LONG_LEASE).acquire());
        assertThat(outcome).isInstanceOf(InterruptedException.class);
        try (RedisProbe a = new RedisProbe(split.get().a().port())) {
            assertThat(a.raw().exists(KEYS.lock(name))).as("the attempt's key on A was released").isFalse();
        }
        held.release();
    }

    @Test
    void aPermitWaiterInterruptedDuringAnAttemptGetsInterruptedException() throws Exception {
        String name = "interrupted-permit";
        Lease held = split.get().two().semaphore(name, 1, LONG_LEASE).tryAcquire().orElseThrow(); // on B and C
        Throwable outcome = interruptInFlight(RedlockPermitScripts.SLOTS.sha(),
                () -> split.get().one().semaphore(name, 1, LONG_LEASE).acquire());
        assertThat(outcome).isInstanceOf(InterruptedException.class);
        try (RedisProbe a = new RedisProbe(split.get().a().port())) {
            assertThat(a.raw().exists(PERMIT_KEYS.slot(name, 1))).as("no slot left on A").isFalse();
        }
        held.release();
    }

    /** An acquire that may throw anything. */
    @FunctionalInterface
    private interface Waiting {
        void run() throws Exception;
    }
}
