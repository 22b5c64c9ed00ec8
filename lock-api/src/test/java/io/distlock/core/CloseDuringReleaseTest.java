package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * §23 for releases: a {@code release()} whose store call is under way when another thread closes the store must still
 * free the lock; the close must not close the backend under it (a closed client refuses the call, and the lock would
 * stay held for its whole lease by nobody alive). The store call is held back by a latch, since a real store's call
 * cannot be stopped at that point; the mem backend refuses calls once closed, as a closed connection pool does.
 */
class CloseDuringReleaseTest {

    private final String space = "mem:close-release-" + UUID.randomUUID();

    @Test
    void aReleaseUnderWayWhenTheStoreClosesStillFreesTheLock() throws InterruptedException {
        BackendLockStore plain = (BackendLockStore) LockStore.open(space);
        CountingBackend backend = new CountingBackend(plain.backend());
        BackendLockStore store = new BackendLockStore(backend, "counted " + space);
        LockStore other = LockStore.open(space);
        try {
            String name = "released-while-closing";
            Lease lease = store.lock(name).acquire();
            CountDownLatch letRelease = new CountDownLatch(1);
            backend.releaseGate = letRelease;
            AtomicReference<Throwable> releaseFailed = new AtomicReference<>();
            Thread releaser = new Thread(() -> {
                try {
                    lease.release();
                } catch (RuntimeException e) {
                    releaseFailed.set(e);
                }
            }, "releaser");
            releaser.start();
            assertThat(backend.releaseEntered.await(10, TimeUnit.SECONDS)).as("release in its store call").isTrue();
            Thread closer = new Thread(store::close, "closer");
            closer.start();
            // the close either ends (closing the backend under the release) or waits for the release to end
            Awaitility.await("close ended or waiting for the release").atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(5))
                    .until(() -> !closer.isAlive() || waitingInCloseForStoreCalls(closer));
            letRelease.countDown();
            releaser.join(TimeUnit.SECONDS.toMillis(10));
            closer.join(TimeUnit.SECONDS.toMillis(10));
            assertThat(releaser.isAlive() || closer.isAlive()).as("release and close ended").isFalse();
            Optional<Lease> next = other.lock(name).tryAcquire();
            next.ifPresent(Lease::release);
            assertThat(next).as("lock free after the close (release outcome: " + releaseFailed.get() + ")")
                    .isPresent();
            assertThat(releaseFailed.get()).as("the release itself").isNull();
        } finally {
            store.close();
            other.close();
            plain.close();
        }
    }

    private static boolean waitingInCloseForStoreCalls(Thread closer) {
        return Arrays.stream(closer.getStackTrace())
                .anyMatch(f -> f.getClassName().equals(AcquisitionsInFlight.class.getName())
                        && f.getMethodName().equals("closeAndAwait"));
    }
}
