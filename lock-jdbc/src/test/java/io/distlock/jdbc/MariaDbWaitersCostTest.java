package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On the machine's MariaDB, N stores (each its own URL spelling, so they share nothing in-process, as N services)
 * wait on one name and hold it 20 ms each in turn: what the stores send per acquisition, counted on the wire, must
 * not grow with the stores that wait, as it does not with Curator's predecessor watch on ZooKeeper, while the wait
 * for a turn stays under {@code pollMaxMillis} (1 s here: a queued waiter still tries the lock once per
 * {@code pollMaxMillis}, the safety net of a lost turn, and those polls do grow with waiters times hold time).
 * Waiters that only poll try more often the longer they wait, and the releasing client takes the lock straight back.
 */
@ExtendWith(Databases.class)
class MariaDbWaitersCostTest {

    private static final long HOLD_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    @Test
    void statementsPerAcquisitionDoNotGrowWithWaitingStores() throws Exception {
        Cost four = cost(4);
        Cost twelve = cost(12);
        System.out.println("MariaDbWaitersCostTest: " + four + "; " + twelve);
        assertThat(twelve.perAcquisition())
                .as("statements per acquisition with 12 waiting stores (%s) against 4 (%s)", twelve, four)
                .isLessThanOrEqualTo(four.perAcquisition() * 1.25 + 0.25);
    }

    /** What was counted in the measured window: acquisitions, every request the stores sent, turn statements. */
    private record Cost(int stores, long acquisitions, long requests, long turns) {
        double perAcquisition() {
            return requests / (double) acquisitions;
        }

        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT, "%d stores: %.2f requests per acquisition (%.2f of them"
                    + " name a turn lock) over %d acquisitions", stores, perAcquisition(),
                    turns / (double) acquisitions, acquisitions);
        }
    }

    private static Cost cost(int n) throws Exception {
        String table = Databases.uniqueTable("waiters");
        String uri = Databases.withOptions(Databases.mariadb(), "distlock.table=" + table
                + "&distlock.pollMaxMillis=1000");
        String name = "waiters:" + n;
        try (RequestCountingProxy all = new RequestCountingProxy(uri, "");
                RequestCountingProxy turnCount = new RequestCountingProxy(all.route(uri), "_LOCK(")) {
            String routed = turnCount.route(all.route(uri));
            List<LockStore> stores = new ArrayList<>();
            ExecutorService threads = Executors.newFixedThreadPool(n);
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong acquisitions = new AtomicLong();
            try {
                for (int i = 0; i < n; i++) {
                    stores.add(LockStore.open(routed + "&connectionAttributes=waiter:" + i));
                }
                CountDownLatch started = new CountDownLatch(n);
                List<Future<?>> loops = new ArrayList<>();
                for (LockStore store : stores) {
                    loops.add(threads.submit(() -> {
                        started.countDown();
                        started.await();
                        while (!stop.get()) {
                            Lease lease = store.lock(name).acquire();
                            LockSupport.parkNanos(HOLD_NANOS); // the work done under the lock
                            lease.release();
                            acquisitions.incrementAndGet();
                        }
                        return null;
                    }));
                }
                awaitAcquisitions(acquisitions, 3L * n, loops);
                long a0 = acquisitions.get();
                long r0 = all.requests();
                long l0 = turnCount.requests();
                awaitAcquisitions(acquisitions, a0 + 10L * n, loops);
                Cost cost = new Cost(n, acquisitions.get() - a0, all.requests() - r0,
                        turnCount.requests() - l0);
                stop.set(true);
                for (Future<?> loop : loops) {
                    loop.get(60, TimeUnit.SECONDS);
                }
                return cost;
            } finally {
                stop.set(true);
                threads.shutdownNow();
                for (LockStore store : stores) {
                    store.close();
                }
            }
        }
    }

    /** Waits until {@code target} acquisitions were counted (at most a minute), failing if a loop failed. */
    private static void awaitAcquisitions(AtomicLong acquisitions, long target, List<Future<?>> loops)
            throws Exception {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(5))
                .until(() -> {
                    for (Future<?> loop : loops) {
                        if (loop.isDone()) {
                            loop.get(); // rethrows its failure
                        }
                    }
                    return acquisitions.get() >= target;
                });
    }
}
