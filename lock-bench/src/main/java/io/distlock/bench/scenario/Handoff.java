package io.distlock.bench.scenario;

import io.distlock.bench.core.Contender;
import io.distlock.bench.core.Held;
import io.distlock.bench.core.LockClient;
import io.distlock.bench.core.Sample;
import io.distlock.bench.core.Scenario;
import io.distlock.bench.core.SemaphoreContender;
import io.distlock.bench.core.Workers;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * Scenario 3: two clients take turns. The holder tells the other client to start waiting, gives it
 * {@code settle} to be parked in the store's wait (pub/sub, watch or poll), then releases; the waiter records the
 * time from the start of that release to its acquire returning. This is the latency a waiting service sees when a
 * lock it wants becomes free, which polling libraries pay in whole poll intervals.
 */
public final class Handoff implements Scenario {

    private final Duration settle;

    public Handoff(Duration settle) {
        if (settle.isNegative()) {
            throw new IllegalArgumentException("settle must not be negative, got " + settle);
        }
        this.settle = settle;
    }

    @Override
    public String id() {
        return "handoff";
    }

    @Override
    public String title() {
        return "2 clients take turns: release by one to acquire by the other, already waiting";
    }

    @Override
    public boolean appliesTo(Contender contender) {
        return contender.canWait() && !SemaphoreContender.is(contender);
    }

    @Override
    public boolean reportsThroughput() {
        return false;
    }

    @Override
    public Sample run(Contender contender, String namePrefix, Duration duration) throws Exception {
        LockClient[] clients = {contender.client(0), contender.client(1)};
        String name = namePrefix + "handoff";
        Semaphore[] go = {new Semaphore(0), new Semaphore(0)};
        AtomicLong releaseStartedAt = new AtomicLong();
        Histogram latencies = Sample.newHistogram();
        long settleNanos = settle.toNanos();
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        Workers.runAll(id(), 2, duration.plusSeconds(60), me -> {
            int other = 1 - me;
            Held held = null;
            if (me == 0) {
                held = clients[me].acquire(name);
                go[other].release();
            }
            while (true) {
                if (held == null) {
                    if (!go[me].tryAcquire(60, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("hand-off partner never asked this client to wait");
                    }
                    held = clients[me].acquire(name);
                    long latency = System.nanoTime() - releaseStartedAt.get();
                    synchronized (latencies) {
                        latencies.recordValue(latency);
                    }
                    go[other].release();
                }
                LockSupport.parkNanos(settleNanos);
                boolean last = System.nanoTime() - end >= 0;
                releaseStartedAt.set(System.nanoTime());
                held.release();
                held = null;
                if (last) {
                    return;
                }
            }
        });
        return new Sample(latencies.getTotalCount(), System.nanoTime() - start, latencies, 0);
    }
}
