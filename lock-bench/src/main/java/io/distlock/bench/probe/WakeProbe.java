package io.distlock.bench.probe;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.bench.sql.SeparateClientUri;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * How soon a client waiting for a lock learns that another client released it: store A holds the lock for HOLD_MS
 * while store B waits, then A releases; prints the time from the start of A's release to B's acquire returning
 * (percentiles over COUNT hand-offs). B opens URI_OF_B, by default another spelling of URI ({@code
 * SeparateClientUri}), so the two stores share no in-process release signals and B learns of the release as a
 * separate process would (SQL stores: LISTEN/NOTIFY on PostgreSQL, polling on MariaDB). Not a test: a
 * tool for lock-bench/README.md, "Where the time goes".
 *
 * <pre>
 * java -cp lock-bench/target/distlock-bench.jar io.distlock.bench.probe.WakeProbe URI COUNT HOLD_MS [URI_OF_B]
 * </pre>
 */
public final class WakeProbe {

    public static void main(String[] args) throws Exception {
        if (args.length < 3 || args.length > 4) {
            System.err.println("usage: WakeProbe URI COUNT HOLD_MS [URI_OF_B]");
            System.exit(2);
        }
        String uri = args[0];
        int count = Integer.parseInt(args[1]);
        long holdMillis = Long.parseLong(args[2]);
        // by default a and b as two services: on SQL another spelling of the URL, so they share no in-process wake-up
        LockStore a = LockStore.open(uri);
        LockStore b = LockStore.open(args.length > 3 ? args[3] : SeparateClientUri.of(uri, 1));
        String name = "wake-probe-" + System.nanoTime();
        long[] latencies = new long[count];
        ExecutorService waiter = Executors.newSingleThreadExecutor();
        for (int i = 0; i < count; i++) {
            Lease held = a.lock(name).acquire();
            CountDownLatch waiting = new CountDownLatch(1);
            Future<Long> acquiredAt = waiter.submit(() -> {
                waiting.countDown();
                Lease lease = b.lock(name).acquire();
                long at = System.nanoTime();
                lease.release();
                return at;
            });
            waiting.await();
            Thread.sleep(holdMillis); // the waiter parks in its store's wait meanwhile; no result depends on it
            long releasedAt = System.nanoTime();
            held.release();
            latencies[i] = acquiredAt.get(10, TimeUnit.SECONDS) - releasedAt;
        }
        Arrays.sort(latencies);
        System.out.printf("%s%s, held %d ms: %d hand-offs, p50 %.2f p90 %.2f max %.2f ms%n", uri,
                args.length > 3 ? " -> " + args[3] : "", holdMillis, count, latencies[count / 2] / 1e6,
                latencies[count * 9 / 10] / 1e6, latencies[count - 1] / 1e6);
        System.exit(0);
    }
}
