package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockInfo;
import io.distlock.LockLostException;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.spi.LockBackend;
import io.distlock.spi.OthersWaiting;
import io.distlock.spi.PollingLockBackend;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A released lock goes straight to the next queued thread of the same store, in one store operation, over a counted
 * mem: backend: what it costs, what the receiver gets, that waiters giving up meanwhile leak nothing, and that
 * another client still gets in.
 */
class LocalHandOverTest {

    private final String space = "mem:handover-" + UUID.randomUUID();
    private final List<LockStore> stores = new ArrayList<>();
    private final ExecutorService pool = Executors.newCachedThreadPool();

    private CountingBackend backend;

    private BackendLockStore store() {
        return store(counted -> counted);
    }

    /** A store over the counted mem: backend as {@code view} offers it. */
    private BackendLockStore store(Function<CountingBackend, LockBackend> view) {
        BackendLockStore plain = (BackendLockStore) LockStore.open(space);
        stores.add(plain);
        backend = new CountingBackend(plain.backend());
        BackendLockStore store = new BackendLockStore(view.apply(backend), "counted " + space);
        stores.add(store);
        return store;
    }

    private LockStore other() {
        LockStore s = LockStore.open(space);
        stores.add(s);
        return s;
    }

    @AfterEach
    void tearDown() {
        pool.shutdownNow();
        stores.forEach(LockStore::close);
    }

    @Test
    void aReleaseHandsTheLockToTheQueuedWaiterInOneStoreOperationWithTheWaitersLeaseTime() throws Exception {
        BackendLockStore store = store();
        Lease first = store.lock("handed", LockOptions.defaults().withLeaseTime(Duration.ofSeconds(2))).acquire();
        LockOptions longer = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(40));
        Future<Lease> waiter = pool.submit(() -> store.lock("handed", longer).acquire());
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> store.names.queued() == 1);

        first.release();
        Lease second = waiter.get(20, TimeUnit.SECONDS);

        assertThat(backend.acquireCalls.get()).as("acquires").isEqualTo(1);
        assertThat(backend.handOverCalls.get()).as("hand-overs").isEqualTo(1);
        assertThat(backend.releaseCalls.get()).as("releases").isZero();
        assertThat(second.isValid()).isTrue();
        assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
        LockInfo inStore = other().admin().list("handed", 10).get(0);
        assertThat(inStore.fencingToken()).isEqualTo(second.fencingToken());
        assertThat(inStore.timeLeft()).isGreaterThan(Duration.ofSeconds(20));
        assertThat(other().lock("handed").tryAcquire()).isEmpty();

        second.release(); // nobody queued: a plain release
        assertThat(backend.releaseCalls.get()).isEqualTo(1);
        assertThat(other().lock("handed").tryAcquire()).isPresent();
        assertThat(store.names.locksInUse()).isZero();
    }

    @Test
    void contendedThreadsOfOneStoreCostOneStoreOperationPerTransferAndTokensKeepRising() throws Exception {
        BackendLockStore store = store();
        int threads = 8;
        int rounds = 40;
        List<Long> tokens = java.util.Collections.synchronizedList(new ArrayList<>());
        // held until every thread queues, so the threads contend however the pool schedules them
        Lease first = store.lock("busy").acquire();
        tokens.add(first.fencingToken());
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            futures.add(pool.submit(() -> {
                for (int r = 0; r < rounds; r++) {
                    try (Lease lease = store.lock("busy").acquire()) {
                        tokens.add(lease.fencingToken()); // in lock order: appended while holding the lock
                    }
                }
                return null;
            }));
        }
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> store.names.queued() == threads);
        first.release();
        for (Future<?> f : futures) {
            f.get(2, TimeUnit.MINUTES);
        }
        int total = threads * rounds + 1;
        assertThat(tokens).hasSize(total).isSorted().doesNotHaveDuplicates();
        int handOvers = backend.handOverCalls.get();
        // every acquisition came from exactly one store call: its own acquire or the previous holder's hand-over
        assertThat(backend.acquireCalls.get() + handOvers).isEqualTo(total);
        assertThat(backend.releaseCalls.get() + handOvers).isEqualTo(total);
        assertThat(handOvers).as("hand-overs of " + total).isPositive();
        assertThat(store.courtesyPauses()).as("pauses for other clients, with none waiting").isZero();
        assertThat(store.names.locksInUse()).isZero();
        assertThat(other().lock("busy").tryAcquire()).isPresent();
    }

    @Test
    void waitersThatTimeOutOrAreInterruptedDuringHandOversLeakNothing() throws Exception {
        BackendLockStore store = store();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger acquired = new AtomicInteger();
        List<Future<?>> holders = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            holders.add(pool.submit(() -> {
                while (!stop.get()) {
                    store.lock("racy").acquire().release();
                }
                return null;
            }));
        }
        List<Thread> impatient = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            boolean interrupts = t % 2 == 0;
            Thread thread = new Thread(() -> {
                for (int r = 0; r < 300; r++) {
                    try {
                        Optional<Lease> lease = interrupts ? Optional.of(store.lock("racy").acquire())
                                : store.lock("racy").tryAcquire(Duration.ofNanos(
                                        ThreadLocalRandom.current().nextLong(10_000, 2_000_000)));
                        lease.ifPresent(l -> {
                            acquired.incrementAndGet();
                            l.release();
                        });
                    } catch (InterruptedException expected) {
                        // interrupted while queued: nothing taken
                    }
                    Thread.interrupted(); // a lease taken despite the interrupt leaves the flag set
                }
            });
            impatient.add(thread);
            thread.start();
        }
        Thread interrupter = new Thread(() -> {
            while (!stop.get()) {
                impatient.get(0).interrupt();
                impatient.get(2).interrupt();
                Thread.onSpinWait();
            }
        });
        interrupter.start();
        for (Thread t : impatient) {
            t.join(TimeUnit.MINUTES.toMillis(2));
            assertThat(t.isAlive()).isFalse();
        }
        stop.set(true);
        interrupter.join();
        for (Future<?> f : holders) {
            f.get(1, TimeUnit.MINUTES);
        }
        assertThat(backend.handOverCalls.get()).isPositive();
        assertThat(store.names.queued()).isZero();
        assertThat(store.names.locksInUse()).isZero();
        assertThat(other().lock("racy").tryAcquire()).as("the store lock is free").isPresent();
    }

    @Test
    void aReleaseWhoseLockWasTakenFromItReportsTheLossAndTheWaiterContendsItself() throws Exception {
        BackendLockStore store = store();
        Lease first = store.lock("taken").acquire();
        Future<Lease> waiter = pool.submit(() -> store.lock("taken").acquire());
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> store.names.queued() == 1);
        assertThat(other().admin().forceRelease("taken")).isTrue();

        assertThatThrownBy(first::release).isInstanceOf(LockLostException.class);
        Lease second = waiter.get(20, TimeUnit.SECONDS);

        assertThat(backend.handOverCalls.get()).isEqualTo(1);
        assertThat(backend.acquireCalls.get()).as("the waiter's own acquire").isEqualTo(2);
        assertThat(second.isValid()).isTrue();
        assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
        second.release();
        assertThat(store.names.locksInUse()).isZero();
    }

    @Test
    void aStoreWithoutHandOverReleasesAndTheWaiterAcquires() throws Exception {
        BackendLockStore store = store(CountingBackend::withoutHandOvers);
        Lease first = store.lock("plain").acquire();
        Future<Lease> waiter = pool.submit(() -> store.lock("plain").acquire());
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> store.names.queued() == 1);
        first.release();
        waiter.get(20, TimeUnit.SECONDS).release();
        assertThat(backend.handOverCalls.get()).isZero();
        assertThat(backend.releaseCalls.get()).isEqualTo(2);
        assertThat(store.names.locksInUse()).isZero();
    }

    @Test
    void afterTheBoundOfHandOversInARowAReleaseFreesTheLockInTheStoreWhileAnotherClientWaits() throws Exception {
        BackendLockStore store = store();
        backend.othersWaitingOverride = OthersWaiting.YES;
        int bound = NameState.MAX_HAND_OVERS_IN_A_ROW;
        Lease current = store.lock("chain").acquire();
        List<Future<Lease>> waiters = new ArrayList<>();
        for (int i = 1; i <= bound + 2; i++) {
            waiters.add(pool.submit(() -> store.lock("chain").acquire()));
            int queued = i;
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> store.names.queued() == queued);
        }
        for (int i = 0; i < bound; i++) {
            current.release();
            current = waiters.get(i).get(20, TimeUnit.SECONDS);
        }
        assertThat(backend.handOverCalls.get()).isEqualTo(bound);
        assertThat(backend.releaseCalls.get()).isZero();

        current.release(); // the bound is reached: freed in the store, so other clients' waiters can take it
        assertThat(backend.releaseCalls.get()).isEqualTo(1);
        assertThat(backend.handOverCalls.get()).isEqualTo(bound);
        current = waiters.get(bound).get(20, TimeUnit.SECONDS);
        assertThat(backend.acquireCalls.get()).as("the next waiter acquires in the store").isEqualTo(2);
        assertThat(store.courtesyPauses()).as("after a pause for the other client").isEqualTo(1);

        current.release(); // a new run of hand-overs begins
        assertThat(backend.handOverCalls.get()).isEqualTo(bound + 1);
        waiters.get(bound + 1).get(20, TimeUnit.SECONDS).release();
        assertThat(store.names.locksInUse()).isZero();
    }

    @Test
    void aWaiterWhoseHandOverFailedAcquiresInTheStoreAndStartsANewStreak() throws Exception {
        BackendLockStore store = store();
        backend.othersWaitingOverride = OthersWaiting.YES; // so the bound counts
        int bound = NameState.MAX_HAND_OVERS_IN_A_ROW;
        Lease current = store.lock("restreak").acquire();
        List<Future<Lease>> waiters = new ArrayList<>();
        for (int i = 1; i <= bound + 1; i++) {
            waiters.add(pool.submit(() -> store.lock("restreak").acquire()));
            int queued = i;
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> store.names.queued() == queued);
        }
        for (int i = 0; i < bound - 1; i++) {
            current.release();
            current = waiters.get(i).get(20, TimeUnit.SECONDS);
        }
        assertThat(other().admin().forceRelease("restreak")).isTrue();
        assertThatThrownBy(current::release).isInstanceOf(LockLostException.class); // the bound-th hand-over fails
        current = waiters.get(bound - 1).get(20, TimeUnit.SECONDS);
        assertThat(backend.acquireCalls.get()).as("the waiter's own acquire").isEqualTo(2);
        assertThat(backend.handOverCalls.get()).isEqualTo(bound);

        current.release(); // took the lock in the store itself: a new streak, so this is a hand-over again

        assertThat(backend.releaseCalls.get()).as("plain releases").isZero();
        assertThat(backend.handOverCalls.get()).isEqualTo(bound + 1);
        waiters.get(bound).get(20, TimeUnit.SECONDS).release();
        assertThat(store.names.locksInUse()).isZero();
    }

    @Test
    void withNobodyElseWaitingTheThreadsOfOneStoreKeepHandingOverPastTheBoundAndNeverPause() throws Exception {
        BackendLockStore store = store();
        int transfers = 2 * NameState.MAX_HAND_OVERS_IN_A_ROW + 2;
        Lease current = store.lock("alone").acquire();
        List<Future<Lease>> waiters = queue(store, "alone", transfers);
        for (int i = 0; i < transfers; i++) {
            current.release();
            current = waiters.get(i).get(20, TimeUnit.SECONDS);
        }
        current.release();

        assertThat(backend.handOverCalls.get()).as("hand-overs").isEqualTo(transfers);
        assertThat(backend.releaseCalls.get()).as("plain releases: the last one only").isEqualTo(1);
        assertThat(backend.acquireCalls.get()).as("acquires").isEqualTo(1);
        assertThat(store.courtesyPauses()).as("pauses for other clients").isZero();
        assertThat(store.names.locksInUse()).isZero();
    }

    @Test
    void aClientWaitingInTheStoreEndsTheStreakAtTheBound() throws Exception {
        BackendLockStore store = store();
        int bound = NameState.MAX_HAND_OVERS_IN_A_ROW;
        Lease current = store.lock("watched").acquire();
        List<Future<Lease>> waiters = queue(store, "watched", bound + 1);
        Future<Long> otherClient = pool.submit(() -> {
            try (Lease lease = other().lock("watched").acquire()) {
                return lease.fencingToken();
            }
        });
        Awaitility.await().atMost(Duration.ofSeconds(20))
                .until(() -> ((PollingLockBackend) backend.delegate).signals().hasWaiters("watched"));
        for (int i = 0; i < bound; i++) {
            current.release();
            current = waiters.get(i).get(20, TimeUnit.SECONDS);
        }
        assertThat(backend.releaseCalls.get()).isZero();

        current.release(); // the store said another client waits: freed in the store

        assertThat(backend.releaseCalls.get()).isEqualTo(1);
        assertThat(backend.handOverCalls.get()).isEqualTo(bound);
        // either gets it first: the courtesy makes the other client first as a rule, not a promise, on a loaded host
        waiters.get(bound).get(20, TimeUnit.SECONDS).release();
        assertThat(otherClient.get(20, TimeUnit.SECONDS)).isPositive();
        assertThat(store.courtesyPauses()).as("the next waiter's pause for the other client").isEqualTo(1);
        assertThat(store.names.locksInUse()).isZero();
    }

    @Test
    void aClientThatBeginsToWaitDuringAStreakPastTheBoundGetsTheLockFreedAfterOneMoreHandOver() throws Exception {
        BackendLockStore store = store();
        int pastTheBound = 2 * NameState.MAX_HAND_OVERS_IN_A_ROW;
        Lease current = store.lock("late").acquire();
        List<Future<Lease>> waiters = queue(store, "late", pastTheBound + 2);
        for (int i = 0; i < pastTheBound; i++) {
            current.release();
            current = waiters.get(i).get(20, TimeUnit.SECONDS);
        }
        assertThat(backend.releaseCalls.get()).as("nobody else waited: no release yet").isZero();
        Future<Long> otherClient = pool.submit(() -> {
            try (Lease lease = other().lock("late").acquire()) {
                return lease.fencingToken();
            }
        });
        Awaitility.await().atMost(Duration.ofSeconds(20))
                .until(() -> ((PollingLockBackend) backend.delegate).signals().hasWaiters("late"));

        current.release(); // its grant was made before the other client waited: handed over once more
        assertThat(backend.handOverCalls.get()).isEqualTo(pastTheBound + 1);
        assertThat(backend.releaseCalls.get()).isZero();
        current = waiters.get(pastTheBound).get(20, TimeUnit.SECONDS);

        current.release(); // that hand-over saw the other client: freed in the store

        assertThat(backend.releaseCalls.get()).isEqualTo(1);
        assertThat(backend.handOverCalls.get()).isEqualTo(pastTheBound + 1);
        // in either order (the courtesy makes the other client first as a rule, not a promise), each gets it once
        waiters.get(pastTheBound + 1).get(20, TimeUnit.SECONDS).release();
        assertThat(otherClient.get(20, TimeUnit.SECONDS)).isGreaterThan(current.fencingToken());
        assertThat(store.names.locksInUse()).isZero();
    }

    /** {@code n} threads queued in turn at {@code name}'s gate of {@code store}, each acquiring once. */
    private List<Future<Lease>> queue(BackendLockStore store, String name, int n) {
        List<Future<Lease>> waiters = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            waiters.add(pool.submit(() -> store.lock(name).acquire()));
            int queued = i;
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> store.names.queued() == queued);
        }
        return waiters;
    }

    @Test
    void anotherClientGetsALockThatThreadsOfOneStoreKeepHandingOver() throws Exception {
        BackendLockStore store = store();
        LockStore otherClient = other();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch threeLooping = new CountDownLatch(3);
        List<Future<?>> loops = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            loops.add(pool.submit(() -> {
                threeLooping.countDown();
                while (!stop.get()) {
                    store.lock("shared").acquire().release();
                }
                return null;
            }));
        }
        assertThat(threeLooping.await(20, TimeUnit.SECONDS)).isTrue();
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> backend.handOverCalls.get() > 100);
        CompletableFuture<Long> otherGot = CompletableFuture.supplyAsync(() -> {
            try (Lease lease = otherClient.lock("shared").acquire()) {
                return lease.fencingToken();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }, pool);
        try {
            assertThat(otherGot.get(60, TimeUnit.SECONDS)).isPositive();
        } finally {
            stop.set(true);
        }
        for (Future<?> f : loops) {
            f.get(1, TimeUnit.MINUTES);
        }
        assertThat(backend.releaseCalls.get()).as("plain releases: the lock was freed for the other client")
                .isPositive();
        assertThat(store.names.locksInUse()).isZero();
    }

    @Test
    void theStoreNamesTheThreadTheLockWasHandedToAsItsHolder() throws Exception {
        BackendLockStore store = store();
        Lease first = store.lock("named").acquire();
        String receiverName = "receiver-" + UUID.randomUUID();
        FutureTask<Lease> receiving = new FutureTask<>(
                () -> store.lock("named").acquire());
        Thread receiver = new Thread(receiving, receiverName);
        receiver.start();
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> store.names.queued() == 1);

        first.release();
        Lease second = receiving.get(20, TimeUnit.SECONDS);

        assertThat(backend.handOverCalls.get()).isEqualTo(1);
        assertThat(other().admin().list("named", 10).get(0).owner())
                .as("the holder the admin view shows after a hand-over from " + Thread.currentThread().getName())
                .endsWith(" " + receiverName);
        second.release();
        receiver.join(TimeUnit.SECONDS.toMillis(20));
    }

    @Test
    void aWaiterAskingForALeaseTheStoreRefusesGetsTheRefusalAndTheReleaseStillFreesTheLock() throws Exception {
        BackendLockStore store = store();
        backend.maxLeaseTime = Duration.ofSeconds(30);
        Lease first = store.lock("refused", LockOptions.defaults().withLeaseTime(Duration.ofSeconds(20))).acquire();
        Future<Lease> tooLong = pool.submit(() -> store.lock("refused",
                LockOptions.defaults().withLeaseTime(Duration.ofSeconds(60))).acquire());
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> store.names.queued() == 1);

        first.release();

        assertThatThrownBy(() -> tooLong.get(20, TimeUnit.SECONDS))
                .hasCauseInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxLeaseTime");
        assertThat(other().lock("refused").tryAcquire()).as("the released lock is free in the store").isPresent();
        assertThat(store.names.locksInUse()).isZero();
    }
}
