package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Not a test of speed (nothing is asserted about it): prints acquire+release pairs per second of this store beside
 * Curator's {@link InterProcessMutex} on the same in-process server, in the three shapes of the project's anchor
 * table. Tagged {@code slow}; run with
 * {@code ./mvnw -pl lock-zookeeper verify -Dsurefire.excludedGroups= -Dtest=ThroughputComparison}.
 */
@Tag("slow")
class ThroughputComparison {

    private static final Duration WARMUP = Duration.ofSeconds(1);
    private static final Duration MEASURE = Duration.ofSeconds(4);

    /** One acquire+release pair of thread {@code thread}. */
    @FunctionalInterface
    private interface Pair {
        void run(int thread) throws Exception;
    }

    @Test
    void printSideBySide() throws Exception {
        try (TestingServer server = TestServers.server()) {
            String uri = TestServers.uri(server.getConnectString(), "bench", Duration.ofSeconds(10),
                    Duration.ofSeconds(10));
            CuratorFramework curator = TestServers.rawClient(server.getConnectString(), "bench-curator");
            try (LockStore store = LockStore.open(uri)) {
                List<String> rows = new ArrayList<>();
                for (int[] shape : new int[][] {{1, 0}, {8, 0}, {8, 1}}) {
                    int threads = shape[0];
                    boolean oneKey = shape[1] == 1;
                    List<InterProcessMutex> mutexes = new ArrayList<>();
                    for (int t = 0; t < threads; t++) {
                        mutexes.add(new InterProcessMutex(curator, "/locks/" + (oneKey ? "one" : "own-" + t)));
                    }
                    Pair ours = t -> {
                        try (Lease lease = store.lock(oneKey ? "one" : "own-" + t).acquire()) {
                            assertThat(lease.fencingToken()).isPositive();
                        }
                    };
                    Pair theirs = t -> {
                        InterProcessMutex m = oneKey ? mutexes.get(0) : mutexes.get(t);
                        m.acquire();
                        m.release();
                    };
                    // alternate, and keep each side's better run, so neither gains from running second
                    double distlock = rate(threads, ours);
                    double mutex = rate(threads, theirs);
                    mutex = Math.max(mutex, rate(threads, theirs));
                    distlock = Math.max(distlock, rate(threads, ours));
                    rows.add(String.format("| %d thread(s), %s | %,.0f | %,.0f |", threads,
                            oneKey ? "one key" : "own keys", distlock, mutex));
                }
                System.out.println("| shape | distlock zookeeper | Curator InterProcessMutex |");
                System.out.println("|---|---|---|");
                rows.forEach(System.out::println);
            } finally {
                curator.close();
            }
        }
    }

    private static double rate(int threads, Pair pair) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        LongAdder done = new LongAdder();
        AtomicBoolean counting = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(threads);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                workers.add(pool.submit(() -> {
                    started.countDown();
                    while (!stop.get()) {
                        pair.run(thread);
                        if (counting.get()) {
                            done.increment();
                        }
                    }
                    return null;
                }));
            }
            started.await();
            TimeUnit.MILLISECONDS.sleep(WARMUP.toMillis()); // measurement window, not synchronisation
            counting.set(true);
            long start = System.nanoTime();
            TimeUnit.MILLISECONDS.sleep(MEASURE.toMillis());
            long count = done.sum();
            double seconds = (System.nanoTime() - start) / 1e9;
            stop.set(true);
            for (Future<?> worker : workers) {
                worker.get(1, TimeUnit.MINUTES);
            }
            return count / seconds;
        } finally {
            pool.shutdownNow();
        }
    }
}
