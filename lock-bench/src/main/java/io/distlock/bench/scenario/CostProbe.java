package io.distlock.bench.scenario;

import io.distlock.bench.core.Contender;
import io.distlock.bench.core.Held;
import io.distlock.bench.core.LockClient;
import io.distlock.bench.core.Metered;
import io.distlock.bench.core.RoundTripProxy;
import io.distlock.bench.core.SemaphoreContender;
import io.distlock.bench.core.StoreBench;
import io.distlock.bench.result.OpCost;
import java.time.Duration;
import java.util.OptionalDouble;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * Counted cost per operation: runs one loop for a contender whose clients connect through a counting
 * {@link RoundTripProxy} and divides what the proxy, the server and the client threads counted by the operations.
 * Loops: {@code pair} (one thread, one name, acquire + release: the cost of a lock nobody else wants),
 * {@code semaphore pair} (the same on a semaphore with limit 2), {@code hand-off} (two clients take turns on one
 * name, each already waiting when the other releases: the cost of passing a lock on), {@code contended} (the shape
 * of the contended-8x2 scenario, counted: 8 threads over 2 clients all on one name, acquire and release at once, per
 * acquisition: what a lock costs when its own threads queue for it), and {@code waiters-N} (N
 * clients, one thread each, all on one name, each holding it {@code hold}: the cost per acquisition as waiters grow,
 * and how evenly the clients were served).
 */
public final class CostProbe {

    /** Loop ids as shown in the report. */
    public static final String PAIR = "pair";
    public static final String SEMAPHORE_PAIR = "semaphore pair";
    public static final String HANDOFF = "hand-off";
    public static final String CONTENDED = "contended";
    /** Threads and clients of {@link #CONTENDED}: the contended-8x2 scenario's shape. */
    public static final int CONTENDED_THREADS = 8;
    public static final int CONTENDED_CLIENTS = 2;

    private final StoreBench store;
    private final RoundTripProxy proxy;

    /**
     * How long the holder in {@code hand-off} waits before it releases, so the other client is parked in the
     * store's wait: 5 ms, plus 8 one-way delays when the proxy delays (getting there takes a few round trips).
     */
    public static Duration handoffSettle(Duration delayEachWay) {
        return Duration.ofMillis(5).plus(delayEachWay.multipliedBy(8));
    }

    public CostProbe(StoreBench store, RoundTripProxy proxy) {
        this.store = store;
        this.proxy = proxy;
    }

    /** Whether {@code loop} applies to {@code contender}. */
    public static boolean appliesTo(String loop, Contender contender) {
        boolean semaphore = SemaphoreContender.is(contender);
        if (contender.role().handoffOnly()) {
            return false;
        }
        return switch (loop) {
            case PAIR -> !semaphore;
            case SEMAPHORE_PAIR -> semaphore;
            case HANDOFF, CONTENDED -> !semaphore && contender.canWait();
            default -> throw new IllegalArgumentException("unknown cost loop " + loop);
        };
    }

    /** Runs {@code loop} for about {@code duration} and returns the cost per operation. */
    public OpCost measure(Contender contender, String loop, String namePrefix, Duration duration, Duration settle)
            throws Exception {
        LockClient first = contender.client(0);
        LockClient second = loop.equals(HANDOFF) ? contender.client(1) : null;
        String name = namePrefix + loop.replace(' ', '-');
        if (loop.equals(CONTENDED)) {
            LockClient[] clients = new LockClient[CONTENDED_CLIENTS];
            for (int i = 0; i < clients.length; i++) {
                clients[i] = contender.client(i);
            }
            return count(() -> contended(clients, name, duration));
        }
        return count(() -> switch (loop) {
            case PAIR, SEMAPHORE_PAIR -> pairs(first, name, duration);
            case HANDOFF -> handoffs(first, second, name, duration, settle);
            default -> throw new IllegalArgumentException("unknown cost loop " + loop);
        });
    }

    /**
     * What a waiters run measured: cost per acquisition, and how the acquisitions fell to the clients (a client that
     * barges back in after its own release hides what the others' waits cost).
     *
     * @param cost cost per acquisition
     * @param fewest acquisitions of the client that got the fewest
     * @param most acquisitions of the client that got the most
     */
    public record WaitersRun(OpCost cost, long fewest, long most) {
    }

    /**
     * N clients of {@code contender}, one thread each, all on one name, each holding it for {@code hold} then
     * releasing and asking again, for {@code duration}: cost per acquisition and acquisitions per client.
     */
    public WaitersRun waiters(Contender contender, int clients, String name, Duration duration, Duration hold)
            throws Exception {
        LockClient[] all = new LockClient[clients];
        for (int i = 0; i < clients; i++) {
            all[i] = contender.client(i);
        }
        long end = System.nanoTime() + duration.toNanos();
        long holdNanos = hold.toNanos();
        AtomicLongArray perClient = new AtomicLongArray(clients);
        OpCost cost = count(() -> Metered.run("waiters", clients, duration.plusSeconds(120), index -> {
            long ops = 0;
            while (System.nanoTime() - end < 0) {
                Held held = all[index].acquire(name);
                LockSupport.parkNanos(holdNanos);
                held.release();
                ops++;
            }
            perClient.set(index, ops);
            return ops;
        }));
        long fewest = Long.MAX_VALUE;
        long most = 0;
        for (int i = 0; i < clients; i++) {
            fewest = Math.min(fewest, perClient.get(i));
            most = Math.max(most, perClient.get(i));
        }
        return new WaitersRun(cost, fewest, most);
    }

    /** A metered loop. */
    @FunctionalInterface
    private interface Loop {
        Metered.Phase run() throws Exception;
    }

    private OpCost count(Loop loop) throws Exception {
        RoundTripProxy.Counts before = proxy.counts();
        OptionalDouble cpuBefore = store.serverCpuSeconds();
        Metered.Phase phase = loop.run();
        RoundTripProxy.Counts counted = proxy.counts().minus(before);
        OptionalDouble cpuAfter = store.serverCpuSeconds();
        double ops = Math.max(1, phase.operations());
        double serverCpu = cpuBefore.isPresent() && cpuAfter.isPresent()
                ? (cpuAfter.getAsDouble() - cpuBefore.getAsDouble()) * 1e6 / ops : Double.NaN;
        return new OpCost(phase.operations(), counted.roundTrips() / ops, counted.pushes() / ops,
                counted.bytesUp() / ops, counted.bytesDown() / ops, counted.requests() / ops, serverCpu,
                phase.client().cpuNanos() < 0 ? Double.NaN : phase.client().cpuNanos() / 1e3 / ops,
                phase.client().allocatedBytes() < 0 ? Double.NaN : phase.client().allocatedBytes() / ops,
                phase.operations() * 1e9 / Math.max(1, phase.elapsedNanos()));
    }

    private static Metered.Phase pairs(LockClient client, String name, Duration duration) throws Exception {
        long end = System.nanoTime() + duration.toNanos();
        return Metered.run("cost-pair", 1, duration.plusSeconds(60), index -> {
            long ops = 0;
            while (System.nanoTime() - end < 0) {
                client.acquire(name).release();
                ops++;
            }
            return ops;
        });
    }

    /** {@link #CONTENDED_THREADS} threads spread over {@code clients}, each acquiring and releasing at once. */
    private static Metered.Phase contended(LockClient[] clients, String name, Duration duration) throws Exception {
        long end = System.nanoTime() + duration.toNanos();
        return Metered.run("cost-contended", CONTENDED_THREADS, duration.plusSeconds(60), index -> {
            LockClient client = clients[index % clients.length];
            long ops = 0;
            while (System.nanoTime() - end < 0) {
                client.acquire(name).release();
                ops++;
            }
            return ops;
        });
    }

    private static Metered.Phase handoffs(LockClient a, LockClient b, String name, Duration duration, Duration settle)
            throws Exception {
        LockClient[] clients = {a, b};
        Semaphore[] go = {new Semaphore(0), new Semaphore(0)};
        long settleNanos = settle.toNanos();
        long end = System.nanoTime() + duration.toNanos();
        return Metered.run("cost-handoff", 2, duration.plusSeconds(60), me -> {
            int other = 1 - me;
            Held held = null;
            long handoffs = 0;
            if (me == 0) {
                held = clients[me].acquire(name); // thread-owned locks (Redisson, Curator) must be taken here
                go[other].release();
            }
            while (true) {
                if (held == null) {
                    if (!go[me].tryAcquire(60, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("hand-off partner never asked this client to wait");
                    }
                    held = clients[me].acquire(name);
                    handoffs++;
                    go[other].release();
                }
                LockSupport.parkNanos(settleNanos);
                boolean last = System.nanoTime() - end >= 0;
                held.release();
                held = null;
                if (last) {
                    return handoffs;
                }
            }
        });
    }
}
