package io.distlock.tck.explore;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Runs the threads of one exploration one at a time and chooses, from a seeded {@link Random}, which of the threads
 * waiting at a yield point goes next. A thread runs until its next yield point ({@link #yieldPoint}), its end, or a
 * wait inside the code under test (seen as its state WAITING, TIMED_WAITING or BLOCKED in two looks in a row): the
 * scheduler then lets another waiting thread go. Threads it does not start (the core's renewal and delayed-release
 * threads) join the moment they reach a yield point. Each choice is recorded, so a failing run prints the order
 * that led to it; the same seed makes the same choices (timed waits in the code under test can still shift a run).
 */
final class YieldScheduler {

    /**
     * How long a lone ready thread may be kept back (one choice in four) while a worker is in a timed wait: a
     * renewal then meets the worker's next store call instead of always running first.
     */
    private static final long HOLD_BACK_NANOS = 250_000_000L;

    private final Random random;
    private final Object monitor = new Object();
    private final Map<Thread, String> ready = new LinkedHashMap<>();
    private final List<String> trace = new ArrayList<>();
    private Thread running;
    /** Whether the chosen thread has left its yield point (only then can its state tell that it stopped). */
    private boolean runningLeft;
    private boolean active = true;
    /** Threads whose timed waits are polls: they do not make the scheduler keep a lone ready thread back. */
    private final Set<Thread> quiet = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** How long each thread has waited at yield points in all: the time the scheduler, not the thread, spent. */
    private final Map<Thread, java.util.concurrent.atomic.AtomicLong> parked =
            new java.util.concurrent.ConcurrentHashMap<>();

    YieldScheduler(long seed) {
        this.random = new Random(seed);
    }

    /** Parks the calling thread here until the scheduler chooses it; returns at once once the run is over. */
    void yieldPoint(String label) {
        Thread me = Thread.currentThread();
        boolean interrupted = false;
        long enteredAt = System.nanoTime();
        synchronized (monitor) {
            if (!active) {
                return;
            }
            if (running == me) {
                running = null;
            }
            ready.put(me, label);
            monitor.notifyAll();
            while (active && running != me) {
                try {
                    monitor.wait(50);
                } catch (InterruptedException e) {
                    interrupted = true; // a thread at a yield point is inside a store call: it does not notice
                }
            }
            ready.remove(me);
            if (running == me) {
                runningLeft = true;
                monitor.notifyAll();
            }
        }
        parked.computeIfAbsent(me, k -> new java.util.concurrent.atomic.AtomicLong())
                .addAndGet(System.nanoTime() - enteredAt);
        if (interrupted) {
            me.interrupt();
        }
    }

    /** How long {@code t} has waited at yield points so far, in nanoseconds. */
    long parkedNanos(Thread t) {
        java.util.concurrent.atomic.AtomicLong p = parked.get(t);
        return p == null ? 0 : p.get();
    }

    /**
     * Drives {@code actors} (started, each first calling {@link #yieldPoint}) until all have ended, calling
     * {@code atEachChoice} whenever every controlled thread is stopped, before each choice.
     *
     * @return false if the actors had not all ended by {@code deadlineNanos} ({@link System#nanoTime()})
     */
    boolean drive(Set<Thread> actors, Runnable atEachChoice, long deadlineNanos) throws InterruptedException {
        synchronized (monitor) {
            while (!ready.keySet().containsAll(actors)) {
                if (System.nanoTime() - deadlineNanos > 0) {
                    return false;
                }
                monitor.wait(10);
            }
        }
        int stoppedLooks = 0;
        long holdBackUntil = 0;
        boolean decided = false;
        while (true) {
            if (System.nanoTime() - deadlineNanos > 0) {
                return false;
            }
            if (actors.stream().noneMatch(Thread::isAlive)) {
                return true;
            }
            synchronized (monitor) {
                Thread r = running;
                if (r != null && !runningLeft) {
                    monitor.wait(1);
                    continue;
                }
                if (r != null) {
                    Thread.State s = r.getState();
                    boolean stopped = s == Thread.State.TERMINATED || s == Thread.State.WAITING
                            || s == Thread.State.TIMED_WAITING || s == Thread.State.BLOCKED;
                    stoppedLooks = stopped ? stoppedLooks + 1 : 0;
                    if (stoppedLooks < 2) {
                        monitor.wait(1);
                        continue;
                    }
                    running = null;
                }
                stoppedLooks = 0;
                if (ready.isEmpty()) {
                    monitor.wait(1); // every thread waits in the code under test (a timed wait, a gate)
                    continue;
                }
                if (!decided) { // once per choice: keep a lone ready thread back for one now in a timed wait?
                    decided = true;
                    holdBackUntil = ready.size() == 1 && anyTimedWaiting(actors) && random.nextInt(4) == 0
                            ? System.nanoTime() + HOLD_BACK_NANOS : 0;
                }
                if (holdBackUntil != 0 && ready.size() == 1 && System.nanoTime() - holdBackUntil < 0) {
                    monitor.wait(1);
                    continue;
                }
                decided = false;
                atEachChoice.run();
                List<Map.Entry<Thread, String>> choices = new ArrayList<>(ready.entrySet());
                choices.sort(Comparator.comparing(e -> e.getKey().getName()));
                Map.Entry<Thread, String> chosen = choices.get(random.nextInt(choices.size()));
                trace.add(chosen.getKey().getName() + "@" + chosen.getValue());
                running = chosen.getKey();
                runningLeft = false;
                monitor.notifyAll();
            }
        }
    }

    private boolean anyTimedWaiting(Set<Thread> actors) {
        return actors.stream().anyMatch(t -> !quiet.contains(t) && t.getState() == Thread.State.TIMED_WAITING);
    }

    /** Marks {@code t}'s timed waits as polls that need no hold-back of others (see {@link #HOLD_BACK_NANOS}). */
    void quiet(Thread t) {
        quiet.add(t);
    }

    /** Ends the run: every thread at a yield point goes on, and later yield points pass. */
    void finish() {
        synchronized (monitor) {
            active = false;
            running = null;
            monitor.notifyAll();
        }
    }

    /** The yield points where threads wait to be chosen now. */
    Set<String> readyLabels() {
        synchronized (monitor) {
            return Set.copyOf(ready.values());
        }
    }

    /** The choices made, in order: {@code thread@point}. */
    List<String> trace() {
        synchronized (monitor) {
            return List.copyOf(trace);
        }
    }
}
