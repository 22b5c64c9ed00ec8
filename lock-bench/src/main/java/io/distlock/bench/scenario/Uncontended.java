package io.distlock.bench.scenario;

import io.distlock.bench.core.Allocations;
import io.distlock.bench.core.Contender;
import io.distlock.bench.core.Held;
import io.distlock.bench.core.LockClient;
import io.distlock.bench.core.Sample;
import io.distlock.bench.core.Scenario;
import io.distlock.bench.core.SemaphoreContender;
import io.distlock.bench.core.Workers;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * Scenario 1: {@code threads} threads share one client, each on its own lock name, and loop acquire/release pairs.
 * Measures pairs per second and the latency of a pair: the cost of a lock when nobody else wants it.
 */
public final class Uncontended implements Scenario {

    private final int threads;

    public Uncontended(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        this.threads = threads;
    }

    @Override
    public String id() {
        return "uncontended-" + threads;
    }

    @Override
    public String title() {
        return threads + (threads == 1 ? " thread" : " threads")
                + ", own lock names, one client: acquire/release pairs";
    }

    @Override
    public boolean appliesTo(Contender contender) {
        return !SemaphoreContender.is(contender) && !contender.role().handoffOnly();
    }

    @Override
    public Sample run(Contender contender, String namePrefix, Duration duration) throws Exception {
        LockClient client = contender.client(0);
        Histogram total = Sample.newHistogram();
        AtomicLong operations = new AtomicLong();
        AtomicLong callingBytes = new AtomicLong();
        Allocations.Snapshot others = Allocations.otherThreads();
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        Workers.runAll(id(), threads, duration.plusSeconds(60), index -> {
            String name = namePrefix + "u" + threads + "-" + index;
            Histogram mine = Sample.newHistogram();
            long ops = 0;
            long allocatedBefore = Allocations.thisThread();
            long now = System.nanoTime();
            while (now - end < 0) {
                Held held = client.acquire(name);
                held.release();
                long after = System.nanoTime();
                mine.recordValue(after - now);
                ops++;
                now = after;
            }
            callingBytes.addAndGet(Allocations.thisThread() - allocatedBefore);
            operations.addAndGet(ops);
            synchronized (total) {
                total.add(mine);
            }
        });
        long elapsed = System.nanoTime() - start;
        return new Sample(operations.get(), elapsed, total, 0, allocationKnown() ? callingBytes.get() : -1,
                others.allocatedSince());
    }

    private static boolean allocationKnown() {
        return Allocations.thisThread() >= 0;
    }
}
