package io.distlock.bench.probe;

import io.distlock.bench.core.Contender;
import io.distlock.bench.core.Held;
import io.distlock.bench.core.HostPort;
import io.distlock.bench.core.LockClient;
import io.distlock.bench.core.RoundTripProxy;
import io.distlock.bench.core.WireProtocol;
import io.distlock.bench.distlock.DistlockContender;
import io.distlock.bench.redis.RawRedisContender;
import io.distlock.bench.redis.RawWakeUpRedisContender;
import io.distlock.bench.sql.CompetitorSql;
import io.distlock.bench.sql.RawSqlContender;
import io.distlock.bench.sql.SeparateClientUri;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Where the time of one acquire/release pair or one hand-off goes at a real round-trip time: distlock and the raw
 * limit of the same store, each through its own {@link RoundTripProxy} with the same delay, run back to back in
 * alternating rounds (the first round of each is a warm-up and not printed). Per round it prints throughput, the
 * acquire and release latency percentiles apart, the loop thread's CPU time and its time runnable but waiting for a
 * core ({@code /proc/thread-self/schedstat}), and the round trips and server requests the proxy counted. Not a test
 * and not part of the report: a tool for questions the report raises (lock-bench/README.md, "Where the time goes").
 *
 * <pre>
 * java -cp lock-bench/target/distlock-bench.jar io.distlock.bench.probe.RttProbe \
 *     pair|handoff STORE DELAY_MS_EACH_WAY SECONDS ROUNDS
 * </pre>
 *
 * STORE: redis, postgresql or mariadb (servers at their default local ports). For {@code handoff} the Redis raw
 * contender is the raw wake-up floor; SQL stores have no raw hand-off, so only distlock runs.
 */
public final class RttProbe {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final AtomicLong RUN_QUEUE = new AtomicLong();

    public static void main(String[] args) throws Exception {
        if (args.length != 5 || !List.of("pair", "handoff").contains(args[0])
                || !List.of("redis", "postgresql", "mariadb").contains(args[1])) {
            System.err.println(
                    "usage: RttProbe pair|handoff redis|postgresql|mariadb DELAY_MS_EACH_WAY SECONDS ROUNDS");
            System.exit(2);
        }
        boolean pairs = args[0].equals("pair");
        String store = args[1];
        Duration delay = Duration.ofNanos((long) (Double.parseDouble(args[2]) * 1_000_000));
        int seconds = Integer.parseInt(args[3]);
        int rounds = Integer.parseInt(args[4]);
        HostPort server = new HostPort("127.0.0.1", switch (store) {
            case "redis" -> 6379;
            case "postgresql" -> 5432;
            default -> 3306;
        });
        WireProtocol protocol = switch (store) {
            case "redis" -> WireProtocol.REDIS;
            case "postgresql" -> WireProtocol.POSTGRESQL;
            default -> WireProtocol.MYSQL;
        };
        CompetitorSql sql = store.equals("postgresql") ? CompetitorSql.POSTGRESQL : CompetitorSql.MARIADB;
        List<Contender> contenders = new ArrayList<>();
        List<RoundTripProxy> proxies = new ArrayList<>();
        RoundTripProxy forDistlock = new RoundTripProxy(server, delay, protocol);
        proxies.add(forDistlock);
        String distlockUri = forDistlock.address().fill(switch (store) {
            case "redis" -> "redis://{host}:{port}";
            case "postgresql" -> "jdbc:postgresql://{host}:{port}/test?user=postgres";
            default -> "jdbc:mariadb://{host}:{port}/test?user=root";
        });
        // the hand-off's two clients as two services: no in-process wake-up between them
        contenders.add(new DistlockContender(client -> SeparateClientUri.of(distlockUri, client)));
        if (store.equals("redis") || pairs) {
            RoundTripProxy forRaw = new RoundTripProxy(server, delay, protocol);
            proxies.add(forRaw);
            contenders.add(!store.equals("redis") ? new RawSqlContender(sql, forRaw.address())
                    : pairs ? new RawRedisContender(forRaw.address()) : new RawWakeUpRedisContender(forRaw.address()));
        }
        String name = "probe:" + System.nanoTime() + ":";
        for (int round = 0; round <= rounds; round++) {
            for (int i = 0; i < contenders.size(); i++) {
                RoundTripProxy.Counts before = proxies.get(i).counts();
                String line = pairs ? pairs(contenders.get(i), name + "pair", seconds)
                        : handOffs(contenders.get(i), name + "handoff", seconds);
                RoundTripProxy.Counts counted = proxies.get(i).counts().minus(before);
                if (round > 0) {
                    System.out.printf("round %d %-8s %s | round trips %d, server requests %d%n", round,
                            contenders.get(i).role(), line, counted.roundTrips(), counted.requests());
                }
            }
        }
        System.exit(0); // the contenders' clients keep daemon and pool threads
    }

    private static String pairs(Contender contender, String name, int seconds) throws Exception {
        LockClient client = contender.client(0);
        long[] acquires = new long[1_000_000];
        long[] releases = new long[1_000_000];
        int n = 0;
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(seconds);
        long cpu = THREADS.getCurrentThreadCpuTime();
        long queued = runQueueNanos();
        while (System.nanoTime() - end < 0 && n < acquires.length) {
            long t0 = System.nanoTime();
            Held held = client.acquire(name);
            long t1 = System.nanoTime();
            held.release();
            acquires[n] = t1 - t0;
            releases[n++] = System.nanoTime() - t1;
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        return String.format("%4.0f pairs/s, CPU %.0f us/pair, runnable-waiting %.0f us/pair | acquire %s | release %s",
                n / elapsed, (THREADS.getCurrentThreadCpuTime() - cpu) / 1e3 / n,
                (runQueueNanos() - queued) / 1e3 / n, percentiles(acquires, n), percentiles(releases, n));
    }

    /** The hand-off scenario of the report (Handoff.java) with a 5 ms settle, release start to acquire return. */
    private static String handOffs(Contender contender, String name, int seconds) throws Exception {
        LockClient[] clients = {contender.client(0), contender.client(1)};
        Semaphore[] go = {new Semaphore(0), new Semaphore(0)};
        AtomicLong releaseAt = new AtomicLong();
        long[] latencies = new long[1_000_000];
        AtomicInteger n = new AtomicInteger();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        Thread[] threads = new Thread[2];
        for (int i = 0; i < 2; i++) {
            int me = i;
            threads[i] = new Thread(() -> {
                long queued = runQueueNanos();
                try {
                    Held held = null;
                    if (me == 0) {
                        held = clients[me].acquire(name);
                        go[1].release();
                    }
                    while (true) {
                        if (held == null) {
                            if (!go[me].tryAcquire(30, TimeUnit.SECONDS)) {
                                throw new IllegalStateException("the other client never released");
                            }
                            held = clients[me].acquire(name);
                            latencies[n.getAndIncrement()] = System.nanoTime() - releaseAt.get();
                            go[1 - me].release();
                        }
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
                        boolean last = System.nanoTime() - end >= 0;
                        releaseAt.set(System.nanoTime());
                        held.release();
                        held = null;
                        if (last) {
                            break;
                        }
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                } finally {
                    RUN_QUEUE.addAndGet(runQueueNanos() - queued);
                }
            });
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        int count = n.get();
        return String.format("%d hand-offs %s | loop threads runnable-waiting %.2f ms per hand-off", count,
                percentiles(latencies, count), RUN_QUEUE.getAndSet(0) / 1e6 / count);
    }

    private static String percentiles(long[] values, int n) {
        Arrays.sort(values, 0, n);
        return String.format("p50 %.3f p90 %.3f p99 %.3f max %.3f ms", values[n / 2] / 1e6,
                values[(int) (n * 0.9)] / 1e6, values[Math.min(n - 1, (int) (n * 0.99))] / 1e6, values[n - 1] / 1e6);
    }

    /** Time this thread spent runnable but waiting for a core (Linux schedstat, second field), 0 elsewhere. */
    private static long runQueueNanos() {
        try {
            return Long.parseLong(Files.readString(Path.of("/proc/thread-self/schedstat")).trim().split(" ")[1]);
        } catch (Exception e) {
            return 0;
        }
    }
}
