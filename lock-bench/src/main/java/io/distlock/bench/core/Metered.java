package io.distlock.bench.core;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs a group of worker threads and meters what the client side spent meanwhile: each worker reads its own CPU
 * time and allocation when it starts and ends (so workers that end before the phase does still count), and every
 * other client thread of the JVM (driver I/O, renewal, subscriber threads) is counted from snapshots around the
 * phase. Proxy and in-process server threads are left out (see {@link ThreadCosts}).
 */
public final class Metered {

    private static final java.lang.management.ThreadMXBean MX = ManagementFactory.getThreadMXBean();

    private Metered() {
    }

    /** Body of one worker: returns the operations it completed. */
    @FunctionalInterface
    public interface Body {
        long run(int index) throws Exception;
    }

    /**
     * What one metered phase did.
     *
     * @param operations operations the workers completed
     * @param elapsedNanos wall time of the phase
     * @param client CPU and allocation of the client side
     */
    public record Phase(long operations, long elapsedNanos, ThreadCosts.Cost client) {
    }

    /** Runs {@code count} workers named after {@code label}, waiting at most {@code patience}. */
    public static Phase run(String label, int count, Duration patience, Body body) throws Exception {
        AtomicLong operations = new AtomicLong();
        AtomicLong cpu = new AtomicLong();
        AtomicLong bytes = new AtomicLong();
        ThreadCosts.Snapshot before = ThreadCosts.now();
        long start = System.nanoTime();
        Workers.runAll(label, count, patience, index -> {
            long cpuBefore = MX.getCurrentThreadCpuTime();
            long allocBefore = Allocations.thisThread();
            long ops = body.run(index);
            cpu.addAndGet(MX.getCurrentThreadCpuTime() - cpuBefore);
            bytes.addAndGet(Allocations.thisThread() - allocBefore);
            operations.addAndGet(ops);
        });
        long elapsed = System.nanoTime() - start;
        ThreadCosts.Cost others = ThreadCosts.now().since(before, ThreadCosts::isClientThread);
        return new Phase(operations.get(), elapsed,
                new ThreadCosts.Cost(cpu.get() + others.cpuNanos(), bytes.get() + others.allocatedBytes()));
    }
}
