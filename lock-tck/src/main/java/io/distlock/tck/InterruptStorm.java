package io.distlock.tck;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Runs calls on several threads at once while one more thread interrupts them again and again, so interrupts land
 * at every point of a call: in the client's waits for a pooled connection, in its sockets, in its own locks. The
 * calls start together, so they also compete for the client's connections and the pool's waits are reached. For
 * §15.5, releases: a release runs without its caller's interrupt flag, and an interrupt that arrives during it must
 * not make it fail (the lock or permit would stay held by nobody alive until its lease's end). For §15.6, acquires:
 * an interrupt ends one with {@link InterruptedException} or not at all, never with a made-up outage.
 */
final class InterruptStorm {

    /** One thread's work: its calls, each run with the interrupts landing. */
    interface Work {
        /** Takes what the thread's calls need (a JDK {@code Lock} view must be locked by the thread that unlocks it). */
        void prepare() throws Exception;

        /** The {@code i}-th call of the thread, numbered from 0. */
        void call(int i) throws Exception;

        /** How many calls {@link #call} runs. */
        int calls();

        /** Whether {@code e}, thrown by a call, is its honest answer to the interrupts (none is, by default). */
        default boolean answersInterrupt(Exception e) {
            return false;
        }
    }

    private final List<Work> works;
    private final AtomicIntegerArray started;
    private final AtomicIntegerArray finished;
    /** Interrupts sent to each thread, counted after each {@code interrupt()} returned. */
    private final AtomicLongArray sent;
    private final Queue<String> failures = new ConcurrentLinkedQueue<>();

    InterruptStorm(List<Work> works) {
        this.works = List.copyOf(works);
        this.started = new AtomicIntegerArray(works.size());
        this.finished = new AtomicIntegerArray(works.size());
        this.sent = new AtomicLongArray(works.size());
    }

    /**
     * Runs every work on a thread of its own: all prepare, then all call at once under the interrupts, which stop
     * when the last call returned. Waits at most {@code bound} for each phase.
     *
     * @return what went wrong: a prepare that threw, a call that threw other than {@link Work#answersInterrupt}, or a
     *         call during which at least two interrupts were sent (so one arrived after the flag was cleared) and that
     *         returned normally with the flag clear (an interrupt lost)
     */
    List<String> run(Duration bound) throws InterruptedException {
        CountDownLatch prepared = new CountDownLatch(works.size());
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(works.size());
        List<Thread> threads = new ArrayList<>();
        for (int k = 0; k < works.size(); k++) {
            int index = k;
            threads.add(new Thread(() -> runOne(index, prepared, go, done), "interrupted-call-" + k));
        }
        threads.forEach(Thread::start);
        try {
            if (!prepared.await(bound.toMillis(), TimeUnit.MILLISECONDS)) {
                failures.add("the threads did not prepare within " + bound);
                return List.copyOf(failures);
            }
            Thread interrupter = new Thread(() -> interrupt(threads, done), "interrupter");
            interrupter.start();
            go.countDown();
            if (!done.await(bound.toMillis(), TimeUnit.MILLISECONDS)) {
                failures.add("the interrupted calls did not all return within " + bound);
            }
            interrupter.join(bound.toMillis());
        } finally {
            go.countDown();
        }
        for (Thread t : threads) {
            t.join(bound.toMillis());
        }
        return List.copyOf(failures);
    }

    private void runOne(int k, CountDownLatch prepared, CountDownLatch go, CountDownLatch done) {
        Work work = works.get(k);
        try {
            work.prepare();
        } catch (Exception | AssertionError e) {
            failures.add(Thread.currentThread().getName() + " could not prepare: " + e);
            done.countDown();
            return;
        } finally {
            prepared.countDown();
        }
        try {
            if (!go.await(Tck.HANG.toMillis(), TimeUnit.MILLISECONDS)) {
                failures.add(Thread.currentThread().getName() + " was never started");
                return;
            }
            started.set(k, 1); // only now: the interrupts must not end the wait for go
            for (int i = 0; i < work.calls(); i++) {
                Thread.interrupted();
                long before = sent.get(k);
                try {
                    work.call(i);
                } catch (Exception e) {
                    if (!work.answersInterrupt(e)) {
                        failures.add(Thread.currentThread().getName() + ": call " + i + " interrupted while it ran "
                                + "threw " + e);
                    }
                    continue;
                }
                long during = sent.get(k) - before; // read before the flag: a later interrupt only sets it
                if (during >= 2 && !Thread.currentThread().isInterrupted()) {
                    failures.add(Thread.currentThread().getName() + ": call " + i + " returned with the interrupt "
                            + "flag clear, though " + during + " interrupts were sent while it ran");
                }
            }
        } catch (InterruptedException e) {
            failures.add(Thread.currentThread().getName() + " was interrupted before its calls started");
        } finally {
            finished.set(k, 1);
            Thread.interrupted();
            done.countDown();
        }
    }

    /** Interrupts every started, unfinished thread, round after round, until all are done. */
    private void interrupt(List<Thread> threads, CountDownLatch done) {
        while (done.getCount() > 0) {
            for (int k = 0; k < threads.size(); k++) {
                if (started.get(k) == 1 && finished.get(k) == 0) {
                    threads.get(k).interrupt();
                    sent.incrementAndGet(k);
                }
            }
        }
    }
}
