package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.spi.Grant;
import io.distlock.spi.LockBackend;
import io.distlock.spi.Renewal;
import io.distlock.spi.Terms;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * releaseAfter moves a time-bound lock's expiry to "minHeld after acquisition"; a background renewal of the same
 * lease already in flight must not land after it and shorten the hold back to one lease time. A gate in front of a
 * real mem: backend holds the renewal thread inside renew to force that interleaving.
 */
class ReleaseAfterOrderingTest {

    /** The real mem: backend, with renewals from the renewal thread held at a gate while it is armed. */
    private static final class GatedRenewals implements LockBackend {
        final LockBackend delegate;
        final CountDownLatch renewalInFlight = new CountDownLatch(1);
        final CountDownLatch open = new CountDownLatch(1);
        volatile boolean armed;

        GatedRenewals(LockBackend delegate) {
            this.delegate = delegate;
        }

        @Override
        public Terms terms() {
            return delegate.terms();
        }

        @Override
        public Grant acquire(String name, Duration leaseTime, Wait wait) throws InterruptedException {
            return delegate.acquire(name, leaseTime, wait);
        }

        @Override
        public boolean release(Grant grant) {
            return delegate.release(grant);
        }

        @Override
        public Set<Grant> renew(List<Renewal> renewals) {
            if (armed && Thread.currentThread().getName().startsWith("distlock-renewal")) {
                armed = false;
                renewalInFlight.countDown();
                try {
                    open.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return delegate.renew(renewals);
        }

        @Override
        public void close() {
            delegate.close();
        }
    }

    @Test
    void aRenewalInFlightDoesNotShortenTheMinimumHold() throws Exception {
        String space = "mem:release-after-" + UUID.randomUUID();
        try (BackendLockStore plain = (BackendLockStore) LockStore.open(space);
                LockStore other = LockStore.open(space)) {
            GatedRenewals gated = new GatedRenewals(plain.backend());
            try (BackendLockStore store = new BackendLockStore(gated, "gated " + space)) {
                LockOptions options = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(3));
                gated.armed = true;
                Lease lease = store.lock("job", options).acquire();
                assertThat(gated.renewalInFlight.await(10, TimeUnit.SECONDS)).as("a renewal in flight").isTrue();
                CompletableFuture<Void> releasing = CompletableFuture.runAsync(
                        () -> lease.releaseAfter(Duration.ofSeconds(12)));
                try {
                    releasing.get(500, TimeUnit.MILLISECONDS); // returned before the renewal landed
                } catch (TimeoutException waitingForTheRenewal) {
                    // it waits for the renewal in flight, to write the expiry after it
                }
                gated.open.countDown(); // the renewal (3 s) lands now
                releasing.get(10, TimeUnit.SECONDS);
                long checkUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (System.nanoTime() - checkUntil < 0) {
                    assertThat(other.lock("job").tryAcquire(Duration.ofMillis(200)))
                            .as("still held: minHeld is 12 s, the lease time 3 s").isEmpty();
                }
            }
        }
    }
}
