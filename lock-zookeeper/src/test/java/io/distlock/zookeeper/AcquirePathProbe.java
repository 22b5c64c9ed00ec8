package io.distlock.zookeeper;

import io.distlock.LockStore;
import io.distlock.spi.Grant;
import io.distlock.spi.LeaseEvents;
import io.distlock.spi.Wait;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Not a test of speed (nothing is asserted about it): breaks an acquire+release pair down into what it costs, on one
 * in-process server, in one run so that a busy machine weighs on every variant alike. Prints, per round and variant,
 * pairs per second, requests the server received per pair, context switches per pair and CPU per pair (both for the
 * whole JVM, the server included). Variants: the whole store (core and backend), the backend alone with and without
 * the listing sent behind the create, and the same three Curator calls made synchronously and asynchronously. Tagged
 * {@code slow}; run with {@code ./mvnw -pl lock-zookeeper -am verify -Dsurefire.excludedGroups=
 * -Dtest=AcquirePathProbe -Dsurefire.failIfNoSpecifiedTests=false} and optionally {@code -Dprobe.threads=1}
 * (default 8, each on its own key), {@code -Dprobe.rounds=4}, {@code -Dprobe.variants=01234}.
 */
@Tag("slow")
class AcquirePathProbe {

    private static final Duration WARMUP = Duration.ofSeconds(1);
    private static final Duration MEASURE = Duration.ofSeconds(3);
    private static final int THREADS = Integer.getInteger("probe.threads", 8);
    private static final int ROUNDS = Integer.getInteger("probe.rounds", 3);

    @FunctionalInterface
    private interface Pair {
        void run(int thread) throws Exception;
    }

    @Test
    void compare() throws Exception {
        try (TestingServer server = TestServers.server()) {
            String uri = TestServers.uri(server.getConnectString(), "probe", Duration.ofSeconds(10),
                    Duration.ofSeconds(10));
            CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "probe-raw");
            for (int t = 0; t < THREADS; t++) {
                raw.create().creatingParentsIfNeeded().forPath("/p/own-" + t);
            }
            byte[] data = "x".getBytes();
            try (LockStore store = BackendStores.open(uri);
                    ZooKeeperBackend backend = TestServers.backend(uri);
                    ZooKeeperBackend sequential = TestServers.backend(uri)) {
                backend.attach(LeaseEvents.NONE);
                Pair full = t -> store.lock("own-" + t).acquire().release();
                Pair backendOnly = t -> {
                    Grant g = backend.acquire("own-" + t, Duration.ofSeconds(30), Wait.forever());
                    backend.release(g);
                };
                sequential.attach(LeaseEvents.NONE);
                sequential.listBehindCreate = false;
                Pair backendSequential = t -> {
                    Grant g = sequential.acquire("own-" + t, Duration.ofSeconds(30), Wait.forever());
                    sequential.release(g);
                };
                Pair sync = t -> {
                    String parent = "/p/own-" + t;
                    String node = raw.create().withProtection().withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
                            .forPath(parent + "/lock-", data);
                    raw.getChildren().forPath(parent);
                    raw.delete().guaranteed().forPath(node);
                };
                Pair async = t -> {
                    String parent = "/p/own-" + t;
                    CuratorEvent created = await(cb -> raw.create().withProtection()
                            .withMode(CreateMode.EPHEMERAL_SEQUENTIAL).inBackground(cb).forPath(parent + "/lock-",
                                    data));
                    await(cb -> raw.getChildren().inBackground(cb).forPath(parent));
                    await(cb -> raw.delete().guaranteed().inBackground(cb).forPath(created.getName()));
                };
                List<String> names = List.of("store (core+backend)", "backend, list behind create",
                        "raw sync x3", "raw async x3", "backend, list after create");
                List<Pair> pairs = List.of(full, backendOnly, sync, async, backendSequential);
                for (int round = 0; round < ROUNDS; round++) {
                    for (int i = 0; i < pairs.size(); i++) {
                        if (!System.getProperty("probe.variants", "01234").contains(Integer.toString(i))) {
                            continue;
                        }
                        long before = TestServers.requestsReceived(server);
                        long switchesBefore = contextSwitches();
                        long cpuBefore = cpuNanos();
                        long[] count = new long[1];
                        double rate = rate(pairs.get(i), count);
                        long cpu = cpuNanos() - cpuBefore;
                        long switches = contextSwitches() - switchesBefore;
                        long after = TestServers.requestsReceived(server);
                        System.out.printf("PROBE round %d | %s | %,.0f pairs/s | %.2f requests/pair | %.1f context "
                                + "switches/pair | %.0f us CPU/pair (whole JVM, server included)%n", round,
                                names.get(i), rate, (after - before) / (double) count[0],
                                switches / (double) count[0], cpu / 1e3 / count[0]);
                    }
                }
            } finally {
                raw.close();
                POOL.shutdownNow();
            }
        }
    }

    @FunctionalInterface
    private interface Starter {
        void start(org.apache.curator.framework.api.BackgroundCallback cb) throws Exception;
    }

    private static CuratorEvent await(Starter starter) throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        AtomicReference<CuratorEvent> event = new AtomicReference<>();
        starter.start((c, e) -> {
            event.set(e);
            done.countDown();
        });
        if (!done.await(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no answer");
        }
        return event.get();
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** Voluntary and involuntary context switches of every live thread of this JVM. */
    private static long contextSwitches() throws Exception {
        long sum = 0;
        try (var tasks = java.nio.file.Files.list(java.nio.file.Path.of("/proc/self/task"))) {
            for (java.nio.file.Path task : tasks.toList()) {
                try {
                    for (String line : java.nio.file.Files.readAllLines(task.resolve("status"))) {
                        if (line.endsWith("ctxt_switches:") || line.contains("ctxt_switches:")) {
                            sum += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                        }
                    }
                } catch (java.io.IOException gone) {
                    // the thread ended meanwhile
                }
            }
        }
        return sum;
    }

    /** Pairs per second; {@code total[0]} gets every pair run, warm-up included (for the request count). */
    /** One pool for every variant: its threads' context switches are counted while they live. */
    private static final ExecutorService POOL = Executors.newFixedThreadPool(THREADS);

    private static double rate(Pair pair, long[] total) throws Exception {
        ExecutorService pool = POOL;
        LongAdder done = new LongAdder();
        LongAdder all = new LongAdder();
        AtomicBoolean counting = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                workers.add(pool.submit(() -> {
                    while (!stop.get()) {
                        pair.run(thread);
                        all.increment();
                        if (counting.get()) {
                            done.increment();
                        }
                    }
                    return null;
                }));
            }
            TimeUnit.MILLISECONDS.sleep(WARMUP.toMillis());
            counting.set(true);
            long start = System.nanoTime();
            TimeUnit.MILLISECONDS.sleep(MEASURE.toMillis());
            long count = done.sum();
            double seconds = (System.nanoTime() - start) / 1e9;
            stop.set(true);
            for (Future<?> worker : workers) {
                worker.get(1, TimeUnit.MINUTES);
            }
            total[0] = all.sum();
            return count / seconds;
        } finally {
            stop.set(true); // the workers of a failed round stop too
        }
    }
}
