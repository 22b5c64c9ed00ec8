package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LeaseModel;
import io.distlock.LeaseState;
import io.distlock.LockLostException;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The shared core over a counted mem: backend: batching, local queuing, gate hygiene, loss and session states. */
class BackendLockStoreTest {

    private final String space = "mem:core-" + UUID.randomUUID();
    private final List<LockStore> stores = new ArrayList<>();

    private CountingBackend backend;

    private BackendLockStore store() {
        BackendLockStore plain = (BackendLockStore) LockStore.open(space);
        backend = new CountingBackend(plain.backend());
        BackendLockStore store = new BackendLockStore(backend, "counted " + space);
        stores.add(store);
        return store;
    }

    private LockStore other() {
        LockStore s = LockStore.open(space);
        stores.add(s);
        return s;
    }

    @AfterEach
    void closeStores() {
        stores.forEach(LockStore::close);
    }

    @Test
    void renewalsOfManyLeasesAreBatched() throws InterruptedException {
        BackendLockStore store = store();
        LockOptions options = LockOptions.defaults().withLeaseTime(Duration.ofMillis(900));
        List<Lease> leases = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            leases.add(store.lock("lease-" + i, options).acquire());
        }
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> backend.renewals.get() >= 1500);
        assertThat(leases).allMatch(Lease::isValid);
        int calls = backend.renewCalls.get();
        assertThat(backend.renewals.get() / calls).as("leases per renew call (" + calls + " calls)")
                .isGreaterThanOrEqualTo(50);
        leases.forEach(Lease::release);
    }

    @Test
    void manyLocalWaitersCostTheStoreOneContenderAtATime() throws Exception {
        BackendLockStore store = store();
        int threads = 40;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    for (int r = 0; r < 5; r++) {
                        store.lock("hot").acquire().release();
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(2, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(backend.maxAcquiresInFlight.get()).isEqualTo(1);
        assertThat(store.names.locksInUse()).isZero();
    }

    @Test
    void gatesDoNotLeakAfterTimeoutsInterruptsAndReleases() throws Exception {
        BackendLockStore store = store();
        Lease held = other().lock("busy").acquire();
        assertThat(store.lock("busy").tryAcquire(Duration.ofMillis(50))).isEmpty();
        assertThat(store.lock("busy").tryAcquire()).isEmpty();
        CountDownLatch done = new CountDownLatch(1);
        Thread waiter = new Thread(() -> {
            try {
                store.lock("busy").acquire();
            } catch (InterruptedException expected) {
                done.countDown();
            }
        });
        waiter.start();
        assertThat(done.await(200, TimeUnit.MILLISECONDS)).isFalse();
        waiter.interrupt();
        assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
        held.release();
        for (int i = 0; i < 100; i++) {
            store.lock("n" + i).acquire().release();
        }
        assertThat(store.names.locksInUse()).isZero();
    }

    @Test
    void aLeaseThatCannotBeRenewedIsLostWhenItsTimeRunsOut() throws InterruptedException {
        BackendLockStore store = store();
        Lease lease = store.lock("unrenewable", LockOptions.defaults().withLeaseTime(Duration.ofMillis(600)))
                .acquire();
        backend.storeDown.set(true);
        AtomicReference<LockLostException> lost = new AtomicReference<>();
        CountDownLatch told = new CountDownLatch(1);
        lease.onLost(e -> {
            lost.set(e);
            told.countDown();
        });
        assertThat(told.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(lost.get()).hasMessageContaining("ran out without renewal");
        assertThat(backend.renewCalls.get()).as("renewal was retried while the store was down").isGreaterThan(1);
        assertThatThrownBy(lease::release).isInstanceOf(LockLostException.class);
        backend.storeDown.set(false);
        Optional<Lease> again = store.lock("unrenewable").tryAcquire(Duration.ofSeconds(5));
        assertThat(again).as("the gate was opened when the lease was lost").isPresent();
        again.get().release();
    }

    @Test
    void nestedLeaseOfALostHoldReportsTheLossAndExtendOfAReleasedLeaseIsFalse() throws InterruptedException {
        BackendLockStore store = store();
        LockOptions expiring = LockOptions.defaults().withLeaseTime(Duration.ofMillis(300)).withAutoRenew(false);
        Lease outer = store.lock("nested", expiring).acquire();
        Lease inner = store.lock("nested", expiring).acquire();
        CountDownLatch told = new CountDownLatch(1);
        outer.onLost(e -> told.countDown());
        assertThat(told.await(5, TimeUnit.SECONDS)).isTrue();
        assertThatThrownBy(inner::release).isInstanceOf(LockLostException.class);
        assertThatThrownBy(outer::release).isInstanceOf(LockLostException.class);
        Lease fresh = store.lock("fresh").acquire();
        fresh.release();
        assertThat(fresh.extend(Duration.ofSeconds(1))).isFalse();
        assertThat(fresh.state()).isEqualTo(LeaseState.RELEASED);
    }

    @Test
    void sessionEventsMoveLeasesBetweenHeldUncertainAndLost() throws InterruptedException {
        BackendLockStore store = store();
        backend.model = LeaseModel.SESSION;
        Lease lease = store.lock("session").acquire();
        CountDownLatch told = new CountDownLatch(1);
        lease.onLost(e -> told.countDown());
        backend.events.suspended();
        assertThat(lease.state()).isEqualTo(LeaseState.UNCERTAIN);
        assertThat(lease.isValid()).as("uncertain is not valid").isFalse();
        backend.events.reconnected();
        assertThat(lease.state()).isEqualTo(LeaseState.HELD);
        assertThat(lease.isValid()).isTrue();
        backend.events.sessionLost("session expired");
        assertThat(told.await(1, TimeUnit.SECONDS)).isTrue();
        assertThat(lease.state()).isEqualTo(LeaseState.LOST);
        assertThatThrownBy(lease::release).isInstanceOf(LockLostException.class)
                .hasMessageContaining("session expired");
    }

    @Test
    void aLossReportedBetweenGrantAndRegistrationIsNotDropped() throws InterruptedException {
        BackendLockStore store = store();
        backend.model = LeaseModel.SESSION;
        backend.loseGrantsBeforeHandingThemOver = true;
        Lease lease = store.lock("raced").acquire();
        assertThat(lease.state()).isEqualTo(LeaseState.LOST);
        assertThatThrownBy(lease::release).isInstanceOf(LockLostException.class)
                .hasMessageContaining("right after the grant");
    }

    @Test
    void aThrowingListenerDoesNotStopTheOthers() throws InterruptedException {
        BackendLockStore store = store();
        Lease lease = store.lock("listeners").acquire();
        CountDownLatch second = new CountDownLatch(1);
        lease.onLost(e -> {
            throw new IllegalStateException("listener bug");
        });
        lease.onLost(e -> second.countDown());
        store.close();
        assertThat(second.await(1, TimeUnit.SECONDS)).isTrue();
    }
}
