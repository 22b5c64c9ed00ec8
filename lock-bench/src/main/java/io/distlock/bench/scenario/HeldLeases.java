package io.distlock.bench.scenario;

import io.distlock.bench.core.Contender;
import io.distlock.bench.core.Held;
import io.distlock.bench.core.LockClient;
import io.distlock.bench.core.RoundTripProxy;
import io.distlock.bench.core.Workers;
import io.distlock.bench.result.HeldLeasesResult;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Scenario 4: one client holds {@code leases} locks at once with background renewal. Measures the round trips
 * the client sends to the store per renewal interval (through a {@link RoundTripProxy}, so other processes'
 * traffic on a shared server is not counted) and the client heap per held lease (used heap after full GCs,
 * before and after taking the leases). Each worker thread releases the leases it took, as thread-owned locks
 * (Redisson, Curator) require.
 */
public final class HeldLeases {

    private static final int WORKERS = 8;

    private final int leases;
    private final Duration leaseTime;

    public HeldLeases(int leases, Duration leaseTime) {
        if (leases < WORKERS) {
            throw new IllegalArgumentException("hold at least " + WORKERS + " leases, got " + leases);
        }
        this.leases = leases;
        this.leaseTime = leaseTime;
    }

    /** Runs the scenario for {@code contender}, whose clients connect through {@code proxy}. */
    public HeldLeasesResult run(Contender contender, RoundTripProxy proxy, String namePrefix) throws Exception {
        Duration interval = leaseTime.dividedBy(3);
        try (LockClient client = contender.openRenewingClient(leaseTime)) {
            long heapBefore = usedHeapAfterGc();
            CountDownLatch allHeld = new CountDownLatch(WORKERS);
            CountDownLatch releaseNow = new CountDownLatch(1);
            AtomicLong lost = new AtomicLong();
            List<String> firstLoss = new ArrayList<>();
            long start = System.nanoTime();
            AtomicLong acquiredAt = new AtomicLong();
            Thread driver = new Thread(() -> {
                try {
                    Workers.runAll("held", WORKERS, Duration.ofMinutes(15), index -> {
                        List<Held> mine = new ArrayList<>();
                        try {
                            for (int i = index; i < leases; i += WORKERS) {
                                mine.add(client.acquire(namePrefix + "held-" + i));
                            }
                        } finally {
                            allHeld.countDown();
                        }
                        releaseNow.await();
                        for (Held held : mine) {
                            try {
                                held.release();
                            } catch (Exception e) {
                                lost.incrementAndGet();
                                synchronized (firstLoss) {
                                    if (firstLoss.isEmpty()) {
                                        firstLoss.add(e.toString());
                                    }
                                }
                            }
                        }
                    });
                } catch (Exception e) {
                    synchronized (firstLoss) {
                        firstLoss.add(0, "workers: " + e);
                    }
                    allHeld.countDown();
                }
            }, "bench-held-driver");
            driver.setDaemon(true);
            driver.start();
            if (!allHeld.await(10, TimeUnit.MINUTES)) {
                releaseNow.countDown();
                return HeldLeasesResult.failed(contender.name(), leases, leaseTime,
                        "could not take all leases in 10 min");
            }
            acquiredAt.set(System.nanoTime());
            long heapAfter = usedHeapAfterGc();
            // settle into steady renewal, then count a whole number of intervals
            Thread.sleep(interval.toMillis());
            int intervals = 3;
            long before = proxy.roundTrips();
            long windowStart = System.nanoTime();
            Thread.sleep(interval.multipliedBy(intervals).toMillis());
            long roundTrips = proxy.roundTrips() - before;
            double observed = (System.nanoTime() - windowStart) / (double) interval.toNanos();
            releaseNow.countDown();
            driver.join(TimeUnit.MINUTES.toMillis(10));
            synchronized (firstLoss) {
                if (!firstLoss.isEmpty() && firstLoss.get(0).startsWith("workers: ")) {
                    return HeldLeasesResult.failed(contender.name(), leases, leaseTime, firstLoss.get(0));
                }
            }
            return new HeldLeasesResult(contender.name(), leases, leaseTime,
                    (acquiredAt.get() - start) / 1e9, observed, roundTrips,
                    Math.max(0, (heapAfter - heapBefore) / leases), lost.get(),
                    lost.get() == 0 ? null : lost.get() + " releases failed, first: " + firstLoss.get(0));
        }
    }

    private static long usedHeapAfterGc() throws InterruptedException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
