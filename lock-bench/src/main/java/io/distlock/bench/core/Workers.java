package io.distlock.bench.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Starts a group of benchmark threads together, waits for them with a generous bound, and rethrows the first
 * failure so a broken contender is reported instead of silently measured.
 */
public final class Workers {

    /** Body of one worker thread. */
    @FunctionalInterface
    public interface Body {
        void run(int index) throws Exception;
    }

    private Workers() {
    }

    /**
     * Runs {@code count} threads named after {@code label} and waits for all of them, at most {@code patience}.
     *
     * @throws TimeoutException if a worker is still running after {@code patience} (the workers are interrupted)
     * @throws Exception the first exception a worker threw
     */
    public static void runAll(String label, int count, Duration patience, Body body) throws Exception {
        AtomicReference<Exception> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int index = i;
            Thread t = new Thread(() -> {
                try {
                    body.run(index);
                } catch (Exception e) {
                    failure.compareAndSet(null, e);
                } catch (Error e) {
                    failure.compareAndSet(null, new IllegalStateException(label + " worker failed: " + e, e));
                }
            }, "bench-" + label + "-" + i);
            t.setDaemon(true);
            threads.add(t);
        }
        threads.forEach(Thread::start);
        long deadline = System.nanoTime() + patience.toNanos();
        for (Thread t : threads) {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                t.join(Math.max(1, left / 1_000_000));
            }
            if (t.isAlive()) {
                threads.forEach(Thread::interrupt);
                throw new TimeoutException(label + ": worker " + t.getName() + " still running after " + patience
                        + (failure.get() != null ? "; first failure: " + failure.get() : ""));
            }
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }
}
