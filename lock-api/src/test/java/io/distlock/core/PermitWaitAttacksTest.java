package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockLostException;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Attacks on the permit path's waits: the interrupt of a waiter queued at a semaphore's gate, a closing store's
 * permit waiters, a deadline of zero, and a mix of limits, timeouts, interrupts, losses and delayed releases on one
 * name that must never make {@code Names.leave} refuse a leave (it throws into user code now).
 */
class PermitWaitAttacksTest {

    private static final Duration LONG = Duration.ofSeconds(20);

    private final HookedStores stores = new HookedStores("permitwaits");

    @AfterEach
    void tearDown() {
        stores.close();
    }

    /**
     * The store's wait loop says "interrupted while waiting for a permit of semaphore 's'"; a waiter interrupted
     * while queued at the same semaphore's gate should say what it waited for as well.
     */
    @Test
    void anInterruptedQueuedPermitWaiterSaysWhichSemaphore() throws Exception {
        BackendLockStore store = stores.hooked();
        Lease held = store.semaphore("s", 1).acquire();
        Thread[] waiter = new Thread[1];
        Future<Lease> queued = stores.pool.submit(() -> {
            waiter[0] = Thread.currentThread();
            return store.semaphore("s", 1).acquire();
        });
        Awaitility.await().atMost(LONG).until(() -> store.names.queued() == 1);
        waiter[0].interrupt();
        assertThatThrownBy(() -> queued.get(20, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(InterruptedException.class)
                .hasMessageContaining("semaphore").hasMessageContaining("'s'");
        held.release();
    }

    /**
     * A close wakes the backend's waiters ({@code LockBackend.closing}) so they see their stopped wait at once. The
     * mem backend's permit waiters sleep on MemPermits' own signals, which its closing does not wake: each waits out
     * its poll (up to 250 ms), and the close waits for them as acquisitions in flight.
     */
    @Test
    void aClosingStoreWakesItsPermitWaitersInTheStore() throws Exception {
        LockStore other = stores.other();
        BackendLockStore store = stores.hooked();
        List<Lease> full = new ArrayList<>();
        List<Future<Long>> waiters = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            String name = "full-" + i;
            full.add(other.semaphore(name, 1).acquire());
            waiters.add(stores.pool.submit(() -> {
                assertThatThrownBy(() -> store.semaphore(name, 1).acquire()).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("closed");
                return System.nanoTime();
            }));
        }
        Awaitility.await().atMost(LONG).until(() -> stores.backend.permitCalls.get() == 8);
        // not a synchronisation: lets each waiter's poll back off to its cap, as a waiter of a busy name does
        Awaitility.await().pollDelay(Duration.ofMillis(1500)).atMost(LONG).until(() -> true);
        long closing = System.nanoTime();
        store.close();
        long slowest = 0;
        for (Future<Long> w : waiters) {
            slowest = Math.max(slowest, w.get(20, TimeUnit.SECONDS) - closing);
        }
        full.forEach(Lease::release);
        assertThat(Duration.ofNanos(slowest)).as("the slowest permit waiter's exit after close began")
                .isLessThan(Duration.ofMillis(100));
    }

    /** The control of the test above: the same close wakes lock waiters in the store at once. */
    @Test
    void aClosingStoreWakesItsLockWaitersInTheStore() throws Exception {
        LockStore other = stores.other();
        BackendLockStore store = stores.hooked();
        List<Lease> held = new ArrayList<>();
        List<Future<Long>> waiters = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            String name = "held-" + i;
            held.add(other.lock(name).acquire());
            waiters.add(stores.pool.submit(() -> {
                assertThatThrownBy(() -> store.lock(name).acquire()).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("closed");
                return System.nanoTime();
            }));
        }
        // not a synchronisation: lets each waiter reach the store and its poll back off to its cap
        Awaitility.await().pollDelay(Duration.ofMillis(1500)).atMost(LONG).until(() -> true);
        long closing = System.nanoTime();
        store.close();
        long slowest = 0;
        for (Future<Long> w : waiters) {
            slowest = Math.max(slowest, w.get(20, TimeUnit.SECONDS) - closing);
        }
        held.forEach(Lease::release);
        assertThat(Duration.ofNanos(slowest)).as("the slowest lock waiter's exit after close began")
                .isLessThan(Duration.ofMillis(100));
    }

    @Test
    void aDeadlineOfZeroIsOneAttemptAndLeavesNothing() throws Exception {
        LockStore other = stores.other();
        BackendLockStore store = stores.hooked();
        Lease held = other.semaphore("z", 1).acquire();
        long start = System.nanoTime();
        assertThat(store.semaphore("z", 1).tryAcquire(Duration.ZERO)).isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
        assertThatThrownBy(() -> store.semaphore("z", 2).tryAcquire(Duration.ZERO))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("limit of 1");
        held.release();
        Lease mine = store.semaphore("z", 1).tryAcquire(Duration.ZERO).orElseThrow();
        mine.release();
        assertThat(store.names.semaphoresInUse()).isZero();
        assertThat(store.names.queued()).isZero();
    }

    /**
     * Many threads on one semaphore name stating 2 or 3, with timeouts, interrupts, losses reported by the backend
     * and delayed releases: every failure is one the API documents (a limit refused naming both, an interrupt, a lost
     * lease), never Names.leave's "no user of the state ... is left to leave"; at the end nothing is left.
     */
    @Test
    void mixedLimitsTimeoutsInterruptsAndLossesNeverLeaveWithoutEntering() throws Exception {
        BackendLockStore store = stores.hooked();
        List<Throwable> unexpected = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            Thread w = new Thread(() -> work(store, stop, unexpected), "mixed-" + t);
            workers.add(w);
            w.start();
        }
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(6);
        while (System.nanoTime() < until) {
            Thread victim = workers.get(ThreadLocalRandom.current().nextInt(workers.size()));
            victim.interrupt();
            io.distlock.spi.Grant last = stores.backend.lastGrant;
            if (last != null && ThreadLocalRandom.current().nextInt(4) == 0) {
                stores.backend.events.lost(last, "chaos loss");
            }
            Thread.onSpinWait();
            Awaitility.await().pollDelay(Duration.ofMillis(3)).atMost(LONG).until(() -> true);
        }
        stop.set(true);
        for (Thread w : workers) {
            w.interrupt();
            w.join(TimeUnit.SECONDS.toMillis(20));
            assertThat(w.isAlive()).as(w.getName() + " ended").isFalse();
        }
        assertThat(unexpected).as("failures the API does not document").isEmpty();
        Awaitility.await().atMost(LONG).until(() -> store.delayedReleasesPending() == 0);
        Awaitility.await().atMost(LONG).until(() -> store.names.semaphoresInUse() == 0);
        assertThat(store.names.queued()).isZero();
        assertThat(store.names.lossesKept()).isZero();
    }

    private static void work(BackendLockStore store, AtomicBoolean stop, List<Throwable> unexpected) {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        while (!stop.get()) {
            int limit = r.nextInt(5) == 0 ? 3 : 2;
            try {
                Optional<Lease> got = switch (r.nextInt(3)) {
                    case 0 -> store.semaphore("m", limit).tryAcquire();
                    case 1 -> store.semaphore("m", limit).tryAcquire(Duration.ofMillis(r.nextInt(20)));
                    default -> Optional.of(store.semaphore("m", limit).acquire());
                };
                if (got.isPresent()) {
                    Thread.onSpinWait();
                    if (r.nextBoolean()) {
                        got.get().releaseAfter(Duration.ofMillis(r.nextInt(5)));
                    } else {
                        got.get().release();
                    }
                }
            } catch (InterruptedException | LockLostException expected) {
                Thread.interrupted();
            } catch (IllegalStateException e) {
                if (e.getMessage() == null || !e.getMessage().contains("every client must use the same limit")) {
                    unexpected.add(e);
                }
            } catch (RuntimeException | Error e) {
                unexpected.add(e);
            }
        }
    }
}
