package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LeaseState;
import io.distlock.LockLostException;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.DistributedSemaphore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The core's semaphores over a counted mem: backend: local queuing, renewal routing, early losses, close. */
class CoreSemaphoreTest {

    private final String space = "mem:sem-" + UUID.randomUUID();
    private final List<LockStore> stores = new ArrayList<>();
    private CountingPermitBackend backend;

    private BackendLockStore store() {
        BackendLockStore plain = (BackendLockStore) LockStore.open(space);
        stores.add(plain);
        backend = new CountingPermitBackend(plain.backend());
        BackendLockStore store = new BackendLockStore(backend, "counted " + space);
        stores.add(store);
        return store;
    }

    @AfterEach
    void closeStores() {
        stores.forEach(LockStore::close);
    }

    @Test
    void aStoreWithoutPermitOperationsSaysSoNamingTheStore() {
        BackendLockStore plain = (BackendLockStore) LockStore.open(space);
        stores.add(plain);
        BackendLockStore store = new BackendLockStore(new CountingBackend(plain.backend()), "no-permits-store");
        stores.add(store);
        assertThatThrownBy(() -> store.semaphore("s", 2)).isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("no-permits-store").hasMessageContaining("semaphore");
        assertThat(store.features().semaphores()).as("stated in its features").isFalse();
        assertThat(store.features().adminListsPermits()).isFalse();
        assertThat(plain.features().semaphores()).isTrue();
    }

    @Test
    void manyLocalThreadsCostTheStoreAtMostPermitsContenders() throws Exception {
        BackendLockStore store = store();
        DistributedSemaphore semaphore = store.semaphore("busy", 2);
        int threads = 12;
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    start.await();
                    for (int r = 0; r < 10; r++) {
                        try (Lease lease = semaphore.acquire()) {
                            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                            Thread.onSpinWait();
                            inside.decrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : futures) {
                f.get(2, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(most.get()).isLessThanOrEqualTo(2);
        assertThat(backend.maxPermitAcquiresInFlight.get()).as("store contenders at once").isLessThanOrEqualTo(2);
        assertThat(store.names.semaphoresInUse()).as("gates dropped when unused").isZero();
    }

    @Test
    void permitsAreRenewedThroughThePermitOperationsInTheirOwnBatches() throws Exception {
        BackendLockStore store = store();
        LockOptions shortLease = LockOptions.defaults().withLeaseTime(Duration.ofMillis(1500));
        Lease lock = store.lock("same", shortLease).acquire();
        Lease a = store.semaphore("same", 2, shortLease).acquire();
        Lease b = store.semaphore("same", 2, shortLease).acquire();
        Awaitility.await().atMost(Duration.ofSeconds(20))
                .until(() -> backend.permitRenewals.get() >= 6 && backend.permitRenewCalls.get() >= 3);
        assertThat(backend.lockRenewCalls.get()).as("the lock was renewed too").isPositive();
        assertThat(a.isValid()).isTrue();
        assertThat(b.isValid()).isTrue();
        assertThat(a.extend(Duration.ofSeconds(5))).isTrue();
        a.release();
        b.release();
        lock.release();
        assertThat(backend.permitReleases.get()).isEqualTo(2);
    }

    @Test
    void aPermitLostBeforeRegistrationIsLostWhenHandedOver() throws Exception {
        BackendLockStore store = store();
        backend.losePermitsBeforeHandingThemOver = true;
        Lease lease = store.semaphore("early", 1).acquire();
        assertThat(lease.state()).isEqualTo(LeaseState.LOST);
        assertThatThrownBy(lease::release).isInstanceOf(LockLostException.class).hasMessageContaining("vanished");
        backend.losePermitsBeforeHandingThemOver = false;
        assertThat(store.semaphore("early", 1).tryAcquire()).as("the local place was freed").isPresent()
                .get().satisfies(Lease::release);
    }

    @Test
    void closingTheStoreReleasesItsPermits() throws Exception {
        BackendLockStore store = store();
        Lease lease = store.semaphore("closing", 1).acquire();
        CountDownLatch lost = new CountDownLatch(1);
        lease.onLost(e -> lost.countDown());
        store.close();
        assertThat(lost.await(5, TimeUnit.SECONDS)).isTrue();
        LockStore other = LockStore.open(space);
        stores.add(other);
        assertThat(other.semaphore("closing", 1).tryAcquire()).isPresent().get().satisfies(Lease::release);
    }

    @Test
    void aPermitReleasedAfterAMinimumHoldStaysTakenUntilThen() throws Exception {
        BackendLockStore store = store();
        LockOptions lease = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(2));
        Lease permit = store.semaphore("period", 1, lease).acquire();
        long acquiredAt = System.nanoTime();
        permit.releaseAfter(Duration.ofSeconds(4));
        LockStore other = LockStore.open(space);
        stores.add(other);
        DistributedSemaphore seen = other.semaphore("period", 1, lease);
        assertThat(seen.tryAcquire()).as("taken until minHeld has passed").isEmpty();
        Lease next = seen.tryAcquire(Duration.ofSeconds(20)).orElseThrow();
        assertThat(Duration.ofNanos(System.nanoTime() - acquiredAt))
                .as("freed no earlier than minHeld after acquisition").isGreaterThanOrEqualTo(Duration.ofMillis(3900));
        next.release();
    }

    @Test
    void aThreadStatingAnotherLimitThanTheStoresThreadsAsksTheStoreAndTheNameTakesANewLimitWhenUnused() throws Exception {
        BackendLockStore store = store();
        Lease held = store.semaphore("limits", 2).acquire();
        assertThatThrownBy(() -> store.semaphore("limits", 3).tryAcquire(Duration.ofSeconds(5)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("'limits'")
                .hasMessageContaining("2").hasMessageContaining("3");
        assertThat(store.semaphore("limits", 2).tryAcquire()).as("the place of the other limit is kept")
                .isPresent().get().satisfies(Lease::release);
        held.release();
        assertThat(store.names.semaphoresInUse()).as("nothing of the refused limit left behind").isZero();
        Lease renamed = store.semaphore("limits", 3).tryAcquire().orElseThrow();
        renamed.release();
    }
}
