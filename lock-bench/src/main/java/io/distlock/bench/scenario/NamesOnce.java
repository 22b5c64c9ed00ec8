package io.distlock.bench.scenario;

import io.distlock.bench.core.Contender;
import io.distlock.bench.core.LockClient;
import io.distlock.bench.core.Workers;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Locks {@code names} distinct names once each (acquire, release) with a few threads on one client, as per-order or
 * per-entity locks do, so the harness can count what the store keeps for names nobody will use again.
 */
public final class NamesOnce {

    private static final int THREADS = 8;

    private NamesOnce() {
    }

    /** Locks and releases {@code prefix + i} for i in [0, names); returns the seconds it took. */
    public static double run(Contender contender, String prefix, int names) throws Exception {
        LockClient client = contender.client(0);
        AtomicInteger next = new AtomicInteger();
        long start = System.nanoTime();
        Workers.runAll("names-once", THREADS, Duration.ofHours(2), index -> {
            int i;
            while ((i = next.getAndIncrement()) < names) {
                client.acquire(prefix + i).release();
            }
        });
        return (System.nanoTime() - start) / 1e9;
    }
}
