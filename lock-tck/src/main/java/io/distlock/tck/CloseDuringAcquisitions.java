package io.distlock.tck;

import io.distlock.Lease;
import io.distlock.Leadership;
import io.distlock.LeadershipListener;
import io.distlock.LockStore;
import io.distlock.DistributedSemaphore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Lock;
import java.util.function.Supplier;
import org.awaitility.Awaitility;

/**
 * One round of §23.1: a client whose threads keep acquisitions in flight (single attempts on two locks, one of them
 * also through its {@code Lock} view, and on a semaphore of 1; a leadership campaign with a rival on its name; an
 * {@code acquire()} blocked behind another client's holder) is closed in the middle of them; then another client must
 * get every name at once. The steps are here so the rule reads in a few lines and a failure names the round and the
 * names left held.
 */
final class CloseDuringAcquisitions {

    /** Attempts each trying thread makes before the close, so the close lands among acquisitions in flight. */
    private static final int ATTEMPTS_BEFORE_CLOSE = 5;

    private final TckContext tck;
    private final LockStore other;
    private final boolean semaphores;
    private final int round;

    CloseDuringAcquisitions(TckContext tck, LockStore other, boolean semaphores, int round) {
        this.tck = tck;
        this.other = other;
        this.semaphores = semaphores;
        this.round = round;
    }

    /** The names still held (by nobody alive) after the close, or what else went wrong; empty if none. */
    List<String> run() throws InterruptedException {
        List<String> problems = new ArrayList<>();
        LockStore closing = tck.client();
        String lockA = tck.name("abandoned-" + round + "-a");
        String lockB = tck.name("abandoned-" + round + "-b");
        String permit = tck.name("abandoned-" + round + "-permit");
        String leader = tck.name("abandoned-" + round + "-leader");
        String blocked = tck.name("abandoned-" + round + "-blocked");
        Lease blocker = other.lock(blocked).acquire(); // the closing client's acquire() waits in the store for it
        CountDownLatch closeStarted = new CountDownLatch(1);
        AtomicBoolean stop = new AtomicBoolean();
        List<String> before = new CopyOnWriteArrayList<>();
        AtomicInteger tries = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        threads.add(trying("lock a", once(() -> closing.lock(lockA).tryAcquire()), closeStarted, stop, before, tries));
        threads.add(trying("lock b", once(() -> closing.lock(lockB).tryAcquire()), closeStarted, stop, before, tries));
        Lock view = closing.lock(lockA).asLock(); // as Spring Integration's leader initiator tries: tryLock, unlock
        threads.add(trying("lock a through the Lock view", () -> {
            if (view.tryLock()) {
                view.unlock();
            }
        }, closeStarted, stop, before, tries));
        threads.add(trying("leader rival", once(() -> closing.lock(leader).tryAcquire()), closeStarted, stop, before,
                tries));
        if (semaphores) {
            DistributedSemaphore semaphore = closing.semaphore(permit, 1);
            threads.add(trying("permit", once(semaphore::tryAcquire), closeStarted, stop, before, tries));
            threads.add(trying("permit again", once(semaphore::tryAcquire), closeStarted, stop, before, tries));
        }
        Leadership campaign = closing.leadership(leader, new LeadershipListener() {
            @Override
            public void elected(Lease term) {
            }

            @Override
            public void revoked(Lease term) {
            }
        });
        AtomicInteger waiterOutcome = new AtomicInteger(); // 1: the close ended it as a closed store; 2: anything else
        Thread waiter = new Thread(() -> {
            try {
                closing.lock(blocked).acquire().release();
                waiterOutcome.set(2);
            } catch (IllegalStateException closed) {
                waiterOutcome.set(1);
            } catch (InterruptedException | RuntimeException e) {
                waiterOutcome.set(2);
                before.add("the blocked acquire() ended with " + e);
            }
        }, "tck-23-blocked-waiter");
        waiter.setDaemon(true);
        waiter.start();
        threads.forEach(Thread::start);
        int enough = ATTEMPTS_BEFORE_CLOSE * threads.size();
        Awaitility.await("attempts before the close").pollInterval(Duration.ofMillis(1)).atMost(Tck.HANG)
                .until(() -> tries.get() >= enough || !before.isEmpty());
        closeStarted.countDown();
        long closeAt = System.nanoTime();
        closing.close();
        Duration closeTook = Tck.elapsedSince(closeAt);
        if (closeTook.compareTo(Tck.PROMPTLY) > 0) {
            problems.add("close() took " + closeTook.toMillis() + " ms");
        }
        for (Thread t : threads) {
            t.join(Tck.PROMPTLY.toMillis());
            if (t.isAlive()) {
                problems.add("thread '" + t.getName() + "' still acquiring after the close");
            }
        }
        stop.set(true);
        waiter.join(Tck.PROMPTLY.toMillis());
        if (waiter.isAlive() || waiterOutcome.get() != 1) {
            problems.add("the acquire() blocked at the close did not end promptly with IllegalStateException");
        }
        problems.addAll(before);
        campaign.close();
        blocker.release();
        List<String> held = new ArrayList<>();
        for (String name : List.of(lockA, lockB, leader, blocked)) {
            if (!freeAtOnce(() -> other.lock(name).tryAcquire(Tck.PROMPTLY))) {
                held.add("lock '" + name + "'");
            }
        }
        if (semaphores && !freeAtOnce(() -> other.semaphore(permit, 1).tryAcquire(Tck.PROMPTLY))) {
            held.add("the permit of semaphore '" + permit + "'");
        }
        if (!held.isEmpty()) {
            problems.add("still held after the close (lease time 30 s): " + String.join(", ", held));
        }
        return problems;
    }

    /** Whether another client got it within promptly (and released it). */
    private static boolean freeAtOnce(Attempt attempt) throws InterruptedException {
        Optional<Lease> got = attempt.get();
        got.ifPresent(Lease::release);
        return got.isPresent();
    }

    /** A timed acquisition by the other client. */
    @FunctionalInterface
    private interface Attempt {
        Optional<Lease> get() throws InterruptedException;
    }

    /**
     * A thread that keeps trying (and releasing what it gets) until the closed store refuses it, or {@code stop} is
     * set. Before the close every failure is a problem; after it, the closing client may answer with whatever a closed
     * store says: the rule judges what is left in the store.
     */
    /** One attempt of a single try: take it if free, release what it got. */
    private static Runnable once(Supplier<Optional<Lease>> attempt) {
        return () -> attempt.get().ifPresent(Lease::release);
    }

    private static Thread trying(String what, Runnable attempt, CountDownLatch closeStarted,
            AtomicBoolean stop, List<String> before, AtomicInteger tries) {
        Thread t = new Thread(() -> {
            while (!stop.get()) {
                try {
                    attempt.run();
                    tries.incrementAndGet();
                } catch (RuntimeException e) {
                    if (closeStarted.getCount() > 0) {
                        before.add(what + " failed before the close: " + e);
                    }
                    return;
                }
            }
        }, "tck-23-" + what);
        t.setDaemon(true);
        return t;
    }
}
