package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockLostException;
import io.distlock.LockStore;
import io.distlock.spi.Grant;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Threads of one store acquire, nest, time out and are interrupted on one lock (with hand-overs) or one semaphore,
 * while another thread drops the newest grant in the store and reports it lost, wherever it is: in flight, just
 * registered, held or being handed over. Nobody may hang, more than the limit may never hold valid leases at once
 * from this store, and nothing may be left: no state, no queued waiter, no kept loss, nothing held in the store.
 */
class NameStateChaosTest {

    private final String space = "mem:chaos-" + UUID.randomUUID();
    private final List<LockStore> stores = new ArrayList<>();

    @AfterEach
    void tearDown() {
        stores.forEach(LockStore::close);
    }

    @Test
    void aLockUnderDropsInterruptsTimeoutsAndNesting() throws Exception {
        run(1, "x", false);
    }

    @Test
    void aSemaphoreUnderDropsInterruptsAndTimeouts() throws Exception {
        run(2, "s", true);
    }

    private void run(int limit, String name, boolean permit) throws Exception {
        BackendLockStore plain = (BackendLockStore) LockStore.open(space);
        stores.add(plain);
        HookedBackend backend = new HookedBackend(plain.backend());
        BackendLockStore store = new BackendLockStore(backend, "chaos " + space);
        stores.add(store);
        Supplier<Acquirer> acquirer = () -> permit ? new Acquirer(store, name, limit, true)
                : new Acquirer(store, name, 1, false);
        AtomicBoolean stop = new AtomicBoolean();
        Set<Lease> inside = ConcurrentHashMap.newKeySet();
        ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < 5; t++) {
            int kind = t;
            workers.add(new Thread(() -> work(acquirer.get(), kind, limit, inside, violations), "worker-" + t));
        }
        Thread chaos = new Thread(() -> {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            while (!stop.get()) {
                Grant g = backend.lastGrant;
                if (g != null && random.nextInt(4) == 0) {
                    if (permit) {
                        backend.releasePermit(g);
                    } else {
                        backend.release(g);
                    }
                    backend.events.lost(g, "dropped by the chaos thread");
                }
                if (random.nextInt(3) == 0) {
                    workers.get(random.nextInt(2)).interrupt(); // workers 0 and 1 are the interruptible ones
                }
                Thread.yield();
            }
        }, "chaos");
        workers.forEach(Thread::start);
        chaos.start();
        for (Thread w : workers) {
            w.join(TimeUnit.MINUTES.toMillis(2));
            assertThat(w.isAlive()).as(w.getName() + " still running: " + List.of(w.getStackTrace())).isFalse();
        }
        stop.set(true);
        chaos.join();
        assertThat(violations).isEmpty();
        assertThat(store.names.locksInUse()).as("lock states").isZero();
        assertThat(store.names.semaphoresInUse()).as("semaphore states").isZero();
        assertThat(store.names.queued()).as("queued").isZero();
        assertThat(store.names.lossesKept()).as("kept losses").isZero();
        if (permit) {
            assertThat(backend.heldPermits(name)).isZero();
        } else {
            assertThat(LockStore.open(space).lock(name).tryAcquire()).as("free in the store").isPresent();
        }
    }

    private static void work(Acquirer acquirer, int kind, int limit, Set<Lease> inside,
            ConcurrentLinkedQueue<String> violations) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int r = 0; r < 300; r++) {
            Optional<Lease> lease;
            try {
                lease = kind < 2 ? Optional.of(acquirer.acquire())
                        : acquirer.tryAcquire(Duration.ofNanos(random.nextLong(1_000, 3_000_000)));
            } catch (InterruptedException expected) {
                continue; // interrupted while queued or in the store: nothing taken
            }
            Thread.interrupted(); // a lease taken despite an interrupt keeps the flag: clear it for the next round
            if (lease.isEmpty()) {
                continue;
            }
            Lease l = lease.get();
            inside.add(l);
            // validity only ever ends, and each lease in the set was registered before this look: every one valid
            // when read was valid when the look began, so counting them counts leases valid at one moment
            long valid = List.copyOf(inside).stream().filter(Lease::isValid).count();
            if (valid > limit) {
                violations.add(Thread.currentThread().getName() + " saw " + valid + " valid leases at once");
            }
            if (!acquirer.permit && kind == 4) {
                try {
                    Lease nested = acquirer.acquire();
                    // the outer lease dropped meanwhile, the nested acquisition is a new one: read the outer last
                    if (nested.isValid() && nested.fencingToken() != l.fencingToken() && l.isValid()) {
                        violations.add("a nested lease with another token while the outer one is valid");
                    }
                    release(nested);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            Thread.yield();
            inside.remove(l);
            release(l);
        }
    }

    private static void release(Lease l) {
        try {
            l.release();
        } catch (LockLostException expected) {
            // dropped by the chaos thread
        }
    }

    /** A lock or a permit of one name. */
    private record Acquirer(BackendLockStore store, String name, int limit, boolean permit) {
        Lease acquire() throws InterruptedException {
            return permit ? store.semaphore(name, limit).acquire() : store.lock(name).acquire();
        }

        Optional<Lease> tryAcquire(Duration wait) throws InterruptedException {
            return permit ? store.semaphore(name, limit).tryAcquire(wait) : store.lock(name).tryAcquire(wait);
        }
    }
    @Test
    void aCloseStrikingThreadsThatQueueHandOverAndNestLeavesNothingHeldAndNobodyWaiting() throws Exception {
        BackendLockStore plain = (BackendLockStore) LockStore.open(space);
        stores.add(plain);
        HookedBackend backend = new HookedBackend(plain.backend());
        BackendLockStore store = new BackendLockStore(backend, "closing " + space);
        stores.add(store);
        ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
            boolean permit = t % 3 == 2;
            Acquirer acquirer = new Acquirer(store, permit ? "s" : "x", permit ? 2 : 1, permit);
            int kind = t == 4 ? 4 : t % 3;
            workers.add(new Thread(() -> {
                try {
                    work(acquirer, kind, acquirer.limit(), ConcurrentHashMap.newKeySet(), violations);
                } catch (IllegalStateException closed) {
                    assertThat(closed).hasMessageContaining("closed");
                }
            }, "worker-" + t));
        }
        workers.forEach(Thread::start);
        while (backend.lastGrant == null || backend.handedOverFrom == null) {
            Thread.onSpinWait(); // until the workers are handing the lock over among themselves
        }
        store.close();
        for (Thread w : workers) {
            w.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(w.isAlive()).as(w.getName() + " still running: " + List.of(w.getStackTrace())).isFalse();
        }
        assertThat(violations).isEmpty();
        assertThat(store.names.locksInUse()).as("lock states").isZero();
        assertThat(store.names.semaphoresInUse()).as("semaphore states").isZero();
        assertThat(store.names.queued()).as("queued").isZero();
        LockStore other = LockStore.open(space); // the closed store closed the mem: backend it shared with plain
        stores.add(other);
        assertThat(other.lock("x").tryAcquire()).as("'x' free in the store").isPresent();
        assertThat(other.semaphore("s", 2).tryAcquire()).as("'s' free in the store").isPresent();
        assertThat(other.semaphore("s", 2).tryAcquire()).as("both of 's' free in the store").isPresent();
    }
}
