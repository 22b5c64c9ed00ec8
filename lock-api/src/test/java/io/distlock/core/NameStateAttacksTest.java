package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.DistributedSemaphore;
import io.distlock.Lease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Attacks on one state per name (NameState): losses between a hand-over's grant and its registration, a close and a
 * timeout striking a claimed waiter, nesting while another thread queues, and semaphore limits changing under
 * releases. Each ends with nothing left: no gate, no queued waiter, no kept loss, nothing held in the store.
 */
class NameStateAttacksTest {

    private final HookedStores stores = new HookedStores("attacks");

    @AfterEach
    void tearDown() {
        stores.close();
    }

    @Test
    void aLossOfTheHandedOverGrantBeforeItsRegistrationLosesTheReceiversLease() throws Exception {
        BackendLockStore store = stores.hooked();
        Lease first = store.lock("x").acquire();
        stores.backend.afterHandOver = grant -> {
            stores.backend.release(grant); // the store no longer has it, as after an operator's delete
            stores.backend.events.lost(grant, "node vanished right after the hand-over");
            return grant;
        };
        CountDownLatch told = new CountDownLatch(1);
        Future<Lease> receiver = stores.pool.submit(() -> {
            Lease lease = store.lock("x").acquire();
            lease.onLost(e -> told.countDown());
            return lease;
        });
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> store.names.queued() == 1);
        first.release();
        Lease second = receiver.get(20, TimeUnit.SECONDS);
        assertThat(second.isValid()).as("a lease whose grant was reported lost").isFalse();
        assertThat(told.await(20, TimeUnit.SECONDS)).as("lost-lease listener told").isTrue();
        stores.backend.afterHandOver = g -> g;
        Optional<Lease> third = store.lock("x").tryAcquire(Duration.ofSeconds(20));
        assertThat(third).as("the gate opened by the loss").isPresent();
        third.get().release();
        assertThatThrownBy(second::release).isInstanceOf(io.distlock.LockLostException.class);
        HookedStores.assertNothingLeft(store);
    }

    @Test
    void aLossOfTheReleasedGrantDuringItsHandOverKeepsNothing() throws Exception {
        BackendLockStore store = stores.hooked();
        Lease first = store.lock("x").acquire();
        stores.backend.afterHandOver = grant -> {
            stores.backend.events.lost(stores.backend.handedOverFrom, "a late watch on the released node");
            return grant;
        };
        Future<Lease> receiver = stores.pool.submit(() -> store.lock("x").acquire());
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> store.names.queued() == 1);
        first.release();
        Lease second = receiver.get(20, TimeUnit.SECONDS);
        assertThat(second.isValid()).as("the receiver's lease, its own grant never reported lost").isTrue();
        second.release();
        HookedStores.assertNothingLeft(store);
    }

    @Test
    void aCloseDuringAHandOverLeavesNothingHeldInTheStore() throws Exception {
        BackendLockStore store = stores.hooked();
        Lease first = store.lock("x").acquire();
        CountDownLatch gate = new CountDownLatch(1);
        stores.backend.handOverGate = gate;
        CompletableFuture<Throwable> receiver = new CompletableFuture<>();
        stores.pool.submit(() -> {
            try {
                store.lock("x").acquire();
                receiver.complete(null);
            } catch (Throwable t) {
                receiver.complete(t);
            }
        });
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> store.names.queued() == 1);
        Future<?> release = stores.pool.submit(() -> first.release());
        assertThat(stores.backend.handOverEntered.await(20, TimeUnit.SECONDS)).isTrue();
        Future<?> close = stores.pool.submit(store::close);
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(store::isClosed);
        gate.countDown();
        close.get(30, TimeUnit.SECONDS);
        release.get(30, TimeUnit.SECONDS);
        assertThat(receiver.get(30, TimeUnit.SECONDS)).as("the receiver finds the store closed")
                .isInstanceOf(IllegalStateException.class);
        assertThat(stores.other().lock("x").tryAcquire()).as("nothing held by the closed store").isPresent();
    }

    @Test
    void aClaimedWaiterWhoseWaitEndsDuringTheHandOverStillGetsTheLockAndLeaksNothing() throws Exception {
        BackendLockStore store = stores.hooked();
        Lease first = store.lock("x").acquire();
        CountDownLatch gate = new CountDownLatch(1);
        stores.backend.handOverGate = gate;
        long waitNanos = TimeUnit.MILLISECONDS.toNanos(300);
        long[] deadline = new long[1];
        Future<Optional<Lease>> receiver = stores.pool.submit(() -> {
            deadline[0] = System.nanoTime() + waitNanos;
            return store.lock("x").tryAcquire(Duration.ofNanos(waitNanos));
        });
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> store.names.queued() == 1);
        Future<?> release = stores.pool.submit(() -> first.release());
        assertThat(stores.backend.handOverEntered.await(20, TimeUnit.SECONDS)).isTrue();
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> System.nanoTime() - deadline[0] > 0);
        gate.countDown();
        release.get(20, TimeUnit.SECONDS);
        Optional<Lease> second = receiver.get(20, TimeUnit.SECONDS);
        assertThat(second).as("the hand-over's lock, not left behind").isPresent();
        assertThat(second.get().isValid()).isTrue();
        second.get().release();
        HookedStores.assertNothingLeft(store);
        assertThat(stores.other().lock("x").tryAcquire()).isPresent();
    }

    @Test
    void nestingWhileAnotherThreadQueuesKeepsOneHolderAndHandsOverAfterTheOutermost() throws Exception {
        BackendLockStore store = stores.hooked();
        Lease outer = store.lock("x").acquire();
        Future<Lease> queued = stores.pool.submit(() -> store.lock("x").acquire());
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> store.names.queued() == 1);
        Lease inner = store.lock("x").acquire();
        assertThat(inner.fencingToken()).isEqualTo(outer.fencingToken());
        inner.release();
        assertThat(queued.isDone()).as("handed over at an inner release").isFalse();
        assertThat(store.names.queued()).isEqualTo(1);
        outer.release();
        Lease next = queued.get(20, TimeUnit.SECONDS);
        assertThat(next.fencingToken()).isGreaterThan(outer.fencingToken());
        assertThat(outer.isValid()).isFalse();
        next.release();
        HookedStores.assertNothingLeft(store);
    }

    @Test
    void aPermitLossBetweenGrantAndRegistrationWhileOthersAreInFlightIsAppliedAndNotKept() throws Exception {
        BackendLockStore store = stores.hooked();
        DistributedSemaphore semaphore = store.semaphore("s", 3);
        AtomicInteger n = new AtomicInteger();
        stores.backend.afterPermit = grant -> {
            if (n.incrementAndGet() % 2 == 0) {
                stores.backend.releasePermit(grant);
                stores.backend.events.lost(grant, "permit node vanished right after the grant");
            }
            return grant;
        };
        AtomicInteger lost = new AtomicInteger();
        AtomicInteger valid = new AtomicInteger();
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
            workers.add(stores.pool.submit(() -> {
                for (int r = 0; r < 50; r++) {
                    Lease lease = semaphore.acquire();
                    if (lease.isValid()) {
                        valid.incrementAndGet();
                        lease.release();
                    } else {
                        lost.incrementAndGet();
                        try {
                            lease.release();
                        } catch (io.distlock.LockLostException expected) {
                            // reported lost at registration
                        }
                    }
                }
                return null;
            }));
        }
        for (Future<?> w : workers) {
            w.get(2, TimeUnit.MINUTES);
        }
        assertThat(lost.get()).as("leases lost at registration").isEqualTo(n.get() / 2);
        HookedStores.assertNothingLeft(store);
        assertThat(stores.backend.heldPermits("s")).isZero();
    }

    @Test
    void aSemaphoreLimitChangingUnderReleasesLeavesNothingAndNeverExceedsTheStoresLimit() throws Exception {
        BackendLockStore store = stores.hooked();
        AtomicInteger refused = new AtomicInteger();
        AtomicInteger taken = new AtomicInteger();
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int limit = 1 + t % 2;
            workers.add(stores.pool.submit(() -> {
                DistributedSemaphore semaphore = store.semaphore("s", limit);
                for (int r = 0; r < 300; r++) {
                    try {
                        Optional<Lease> lease = semaphore.tryAcquire(Duration.ofMillis(5));
                        if (lease.isPresent()) {
                            taken.incrementAndGet();
                            assertThat(stores.backend.heldPermits("s")).isLessThanOrEqualTo(limit);
                            lease.get().release();
                        }
                    } catch (IllegalStateException otherLimit) {
                        refused.incrementAndGet();
                    }
                }
                return null;
            }));
        }
        for (Future<?> w : workers) {
            w.get(2, TimeUnit.MINUTES);
        }
        assertThat(taken.get()).isPositive();
        HookedStores.assertNothingLeft(store);
        assertThat(stores.backend.heldPermits("s")).isZero();
    }
    @Test
    void virtualThreadsTimingOutAndInterruptedOnASemaphoreNeverExceedItsLimitAndLeaveNothing() throws Exception {
        BackendLockStore store = stores.hooked();
        DistributedSemaphore semaphore = store.semaphore("vs", 3);
        ExecutorService virtual = VirtualThreads.executor();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        List<Future<?>> futures = new ArrayList<>();
        try {
            for (int i = 0; i < 600; i++) {
                boolean patient = i % 3 == 0;
                futures.add(virtual.submit(() -> {
                    Optional<Lease> lease = patient ? Optional.of(semaphore.acquire())
                            : semaphore.tryAcquire(Duration.ofMillis(2));
                    lease.ifPresent(l -> {
                        most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                        Thread.yield();
                        inside.decrementAndGet();
                        l.release();
                    });
                    return null;
                }));
            }
            for (int i = 0; i < futures.size(); i += 7) {
                futures.get(i).cancel(true); // an interrupt, queued or not
            }
            for (Future<?> f : futures) {
                try {
                    f.get(2, TimeUnit.MINUTES);
                } catch (java.util.concurrent.CancellationException cancelled) {
                    // interrupted by the test
                }
            }
        } finally {
            virtual.shutdown();
            assertThat(virtual.awaitTermination(2, TimeUnit.MINUTES)).isTrue();
        }
        assertThat(most.get()).isBetween(1, 3);
        HookedStores.assertNothingLeft(store);
        assertThat(stores.backend.heldPermits("vs")).isZero();
    }
    @Test
    void anotherLimitIsRefusedByTheStoreWhileAThreadHoldsAndTakenOnceNoneDoes() throws Exception {
        BackendLockStore store = stores.hooked();
        Lease holder = store.semaphore("s", 1).acquire();
        Future<Lease> queued = stores.pool.submit(() -> store.semaphore("s", 1).acquire());
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> store.names.queued() == 1);
        assertThatThrownBy(() -> store.semaphore("s", 2).tryAcquire(Duration.ofSeconds(1)))
                .as("asked of the store, outside the local queue: its holders recorded 1")
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("'s'").hasMessageContaining("1")
                .hasMessageContaining("2");
        assertThat(store.names.queued()).as("the refused thread never queued").isEqualTo(1);
        holder.release();
        Lease next = queued.get(20, TimeUnit.SECONDS);
        assertThatThrownBy(() -> store.semaphore("s", 2).tryAcquire())
                .isInstanceOf(IllegalStateException.class);
        next.release();
        Optional<Lease> wider = store.semaphore("s", 2).tryAcquire();
        assertThat(wider).as("nobody of this store uses 's' any more: the new limit").isPresent();
        Optional<Lease> second = store.semaphore("s", 2).tryAcquire();
        assertThat(second).isPresent();
        assertThat(stores.backend.heldPermits("s")).isEqualTo(2);
        wider.get().release();
        second.get().release();
        HookedStores.assertNothingLeft(store);
    }
    @Test
    void aSuspensionDuringAHandOverLeavesTheReceiversLeaseUncertainUntilReconnected() throws Exception {
        BackendLockStore store = stores.hooked();
        Lease first = store.lock("x").acquire();
        stores.backend.afterHandOver = grant -> {
            stores.backend.events.suspended(); // the walk sees no active hold: the released one, the grant in flight
            return grant;
        };
        Future<Lease> receiver = stores.pool.submit(() -> store.lock("x").acquire());
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> store.names.queued() == 1);
        first.release();
        Lease second = receiver.get(20, TimeUnit.SECONDS);
        assertThat(second.state()).as("registered while suspended").isEqualTo(io.distlock.LeaseState.UNCERTAIN);
        stores.backend.events.reconnected();
        assertThat(second.state()).isEqualTo(io.distlock.LeaseState.HELD);
        second.release();
        HookedStores.assertNothingLeft(store);
    }
    @Test
    void aReleaseAfterWithAWaiterQueuedKeepsTheMinimumHoldAndLeavesNothingPending() throws Exception {
        BackendLockStore store = stores.hooked();
        long acquiredAt = System.nanoTime(); // before the core's own mark, which the minimum hold counts from
        Lease first = store.lock("x").acquire();
        Future<Long> receiver = stores.pool.submit(() -> {
            Lease lease = store.lock("x").acquire();
            long at = System.nanoTime();
            assertThat(lease.fencingToken()).isGreaterThan(first.fencingToken());
            lease.release();
            return at;
        });
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> store.names.queued() == 1);
        first.releaseAfter(Duration.ofMillis(400));
        long gotAt = receiver.get(20, TimeUnit.SECONDS);
        assertThat(Duration.ofNanos(gotAt - acquiredAt)).as("the minimum hold kept")
                .isGreaterThanOrEqualTo(Duration.ofMillis(400));
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> store.delayedReleasesPending() == 0);
        HookedStores.assertNothingLeft(store);
        assertThat(stores.other().lock("x").tryAcquire()).isPresent();
    }
}
