package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * An acquire whose reply never comes back (the script ran on the server and took the lock) must not leave the lock
 * held for a whole lease: the store knows the owner value it sent and takes the lock back in the background. The
 * client reaches a test-owned server through a {@link FaultProxy} that swallows that one reply; another client,
 * connected directly, must get the lock long before the 30 s lease would have run out.
 */
class RedisLostAcquireReplyTest extends ServerBehindProxyTestBase {

    private static final LockOptions LEASE_30S = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(30));
    /** Far below the 30 s lease an orphan would hold the lock for. */
    private static final Duration BOUND = Duration.ofSeconds(8);

    @Test
    void anAcquireWhoseReplyTimedOutIsTakenBackInTheBackground() throws Exception {
        try (LockStore lossy = LockStore.open(viaProxy("timeout=1s"));
                LockStore other = LockStore.open(server.uri("timeout=2s"));
                RedisProbe probe = new RedisProbe(server.port())) {
            warmUp(lossy);
            proxy.dropReplyToNext("EVALSHA");
            assertThatThrownBy(() -> lossy.lock("orphan", LEASE_30S).tryAcquire())
                    .isInstanceOf(StoreUnavailableException.class);
            assertThat(proxy.awaitDropped(5, TimeUnit.SECONDS)).as("the proxy swallowed the acquire's reply").isTrue();

            long start = System.nanoTime();
            Optional<Lease> next = other.lock("orphan", LEASE_30S).tryAcquire(BOUND);
            assertThat(next).as("another client gets the lock whose acquire reply was lost, within %s", BOUND)
                    .isPresent();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(BOUND);
            next.get().release();
            assertThat(probe.raw().exists("distlock:{orphan}")).isFalse();
        }
    }

    @Test
    void anAcquireOfAVirtualThreadInterruptedInsideRedisIoIsTakenBackInTheBackground() throws Exception {
        try (LockStore lossy = LockStore.open(viaProxy("timeout=20s"));
                LockStore other = LockStore.open(server.uri("timeout=2s"))) {
            warmUp(lossy);
            proxy.dropReplyToNext("EVALSHA");
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            Thread acquirer = startVirtualThread(() -> {
                try {
                    lossy.lock("interrupted", LEASE_30S).tryAcquire();
                    outcome.complete(null);
                } catch (RuntimeException e) {
                    outcome.complete(e);
                }
            });
            assertThat(proxy.awaitDropped(5, TimeUnit.SECONDS)).as("the acquire ran on the server").isTrue();
            acquirer.interrupt(); // blocked reading the reply that never comes
            assertThat(outcome.get(10, TimeUnit.SECONDS)).as("the interrupted acquire fails")
                    .isInstanceOf(StoreUnavailableException.class);

            Optional<Lease> next = other.lock("interrupted", LEASE_30S).tryAcquire(BOUND);
            assertThat(next).as("another client gets the lock within %s", BOUND).isPresent();
            next.get().release();
        }
    }

    @Test
    void aPermitAcquireWhoseReplyTimedOutIsTakenBackInTheBackground() throws Exception {
        try (LockStore lossy = LockStore.open(viaProxy("timeout=1s"));
                LockStore other = LockStore.open(server.uri("timeout=2s"));
                RedisProbe probe = new RedisProbe(server.port())) {
            RedisClusterPermitRetryTest.warmUpPermits(lossy);
            proxy.dropReplyToNext("EVALSHA");
            assertThatThrownBy(() -> lossy.semaphore("orphan-permit", 1, LEASE_30S).tryAcquire())
                    .isInstanceOf(StoreUnavailableException.class);
            assertThat(proxy.awaitDropped(5, TimeUnit.SECONDS)).as("the proxy swallowed the acquire's reply").isTrue();

            long start = System.nanoTime();
            Optional<Lease> next = other.semaphore("orphan-permit", 1, LEASE_30S).tryAcquire(BOUND);
            assertThat(next).as("another client gets the permit whose acquire reply was lost, within %s", BOUND)
                    .isPresent();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(BOUND);
            next.get().release();
            assertThat(probe.raw().exists("distlock:{orphan-permit}:sem")).isFalse();
        }
    }

    @Test
    void aPermitTakeBackNeverRemovesAnotherHoldersPermit() throws Exception {
        try (LockStore lossy = LockStore.open(viaProxy("timeout=1s"));
                LockStore other = LockStore.open(server.uri("timeout=2s"))) {
            Lease held = other.semaphore("taken-permit", 2, LEASE_30S).tryAcquire().orElseThrow();
            RedisClusterPermitRetryTest.warmUpPermits(lossy);
            proxy.dropReplyToNext("EVALSHA");
            assertThatThrownBy(() -> lossy.semaphore("taken-permit", 2, LEASE_30S).tryAcquire())
                    .isInstanceOf(StoreUnavailableException.class);
            Lease second = other.semaphore("taken-permit", 2, LEASE_30S).tryAcquire(BOUND)
                    .orElseThrow(() -> new AssertionError("the lost acquire's permit was not taken back"));
            // the take-back (compare-and-delete on the lost attempt's value) leaves the other holders alone
            Awaitility.await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5))
                    .until(() -> held.isValid() && second.isValid());
            held.release();
            second.release();
        }
    }

    /**
     * Runs an acquire and a release through {@code store}, so the server has both scripts cached: the swallowed
     * reply is then the reply of a script that ran, not of a {@code NOSCRIPT} refusal.
     */
    static void warmUp(LockStore store) {
        store.lock("warm-up").tryAcquire().orElseThrow().release();
    }

    /** A started virtual thread (JDK 21+; the build targets 17, so through reflection), or the test is skipped. */
    private static Thread startVirtualThread(Runnable task) throws ReflectiveOperationException {
        Method ofVirtual;
        try {
            ofVirtual = Thread.class.getMethod("ofVirtual");
        } catch (NoSuchMethodException e) {
            Assumptions.abort("skipped: virtual threads need JDK 21+, this is " + Runtime.version());
            throw e;
        }
        Object builder = ofVirtual.invoke(null);
        return (Thread) Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class)
                .invoke(builder, task);
    }

    @Test
    void aTakeBackNeverDeletesAnotherHoldersLock() throws Exception {
        try (LockStore lossy = LockStore.open(viaProxy("timeout=1s"));
                LockStore other = LockStore.open(server.uri("timeout=2s"))) {
            Lease held = other.lock("taken", LEASE_30S).tryAcquire().orElseThrow();
            warmUp(lossy);
            proxy.dropReplyToNext("EVALSHA");
            assertThatThrownBy(() -> lossy.lock("taken", LEASE_30S).tryAcquire())
                    .isInstanceOf(StoreUnavailableException.class);
            // the take-back (compare-and-delete on the lost attempt's value) runs and finds someone else's lock
            Awaitility.await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(held::isValid);
            held.release();
        }
    }
}
