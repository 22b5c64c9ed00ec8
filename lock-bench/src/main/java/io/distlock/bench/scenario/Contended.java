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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * Scenario 2: {@code threads} threads spread over {@code clients} independent clients all want one lock name.
 * Measures acquisitions (hand-offs) per second and the acquire latency, i.e. the time a thread waits for its turn.
 */
public final class Contended implements Scenario {

    private final int threads;
    private final int clients;

    public Contended(int threads, int clients) {
        if (clients < 2 || threads < clients) {
            throw new IllegalArgumentException("need at least 2 clients and a thread per client, got "
                    + threads + " threads over " + clients + " clients");
        }
        this.threads = threads;
        this.clients = clients;
    }

    @Override
    public String id() {
        return "contended-" + threads + "x" + clients;
    }

    @Override
    public String title() {
        return threads + " threads over " + clients + " clients, one lock name: hand-offs and acquire latency";
    }

    @Override
    public boolean appliesTo(Contender contender) {
        return contender.canWait() && !SemaphoreContender.is(contender) && !contender.role().handoffOnly();
    }

    @Override
    public Sample run(Contender contender, String namePrefix, Duration duration) throws Exception {
        LockClient[] opened = new LockClient[clients];
        for (int i = 0; i < clients; i++) {
            opened[i] = contender.client(i);
        }
        String name = namePrefix + "contended";
        Histogram total = Sample.newHistogram();
        AtomicLong operations = new AtomicLong();
        AtomicLong crossClient = new AtomicLong();
        AtomicInteger lastClient = new AtomicInteger(-1);
        AtomicLong callingBytes = new AtomicLong();
        Allocations.Snapshot others = Allocations.otherThreads();
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        Workers.runAll(id(), threads, duration.plusSeconds(60), index -> {
            int clientIndex = index % clients;
            LockClient client = opened[clientIndex];
            Histogram mine = Sample.newHistogram();
            long ops = 0;
            long allocatedBefore = Allocations.thisThread();
            long now = System.nanoTime();
            while (now - end < 0) {
                Held held = client.acquire(name);
                long acquired = System.nanoTime();
                if (lastClient.getAndSet(clientIndex) != clientIndex) {
                    crossClient.incrementAndGet();
                }
                held.release();
                mine.recordValue(acquired - now);
                ops++;
                now = System.nanoTime();
            }
            callingBytes.addAndGet(Allocations.thisThread() - allocatedBefore);
            operations.addAndGet(ops);
            synchronized (total) {
                total.add(mine);
            }
        });
        long elapsed = System.nanoTime() - start;
        return new Sample(operations.get(), elapsed, total, crossClient.get(),
                allocationKnown() ? callingBytes.get() : -1, others.allocatedSince());
    }

    private static boolean allocationKnown() {
        return Allocations.thisThread() >= 0;
    }
}
