package io.distlock.redis;

import io.distlock.LockStore;
import io.distlock.tck.fixture.FreePorts;
import java.util.List;

/**
 * Three test-owned masters A, B and C seen by two Redlock clients that each reach only two of them, so their grants
 * land on majorities sharing one master, B: client {@link #one()} reaches A and B (B through a {@link FaultProxy}
 * that can hold one of its requests), client {@link #two()} reaches B and C; the third node of each is a port
 * nothing listens on (a master that is down for that client). Counters can be set per master beforehand, which
 * forces what each majority's largest counter is.
 */
final class SplitMajorities implements AutoCloseable {

    /** Per-node timeout of client one: long, so a request the proxy holds is waited for, not timed out. */
    private static final String PATIENT = "timeout=20s&nodeTimeout=20s";

    private final List<RedisServer> masters;
    private final FaultProxy toB;
    private final LockStore one;
    private final LockStore two;

    SplitMajorities() throws Exception {
        masters = List.of(RedisServer.start(), RedisServer.start(), RedisServer.start());
        toB = new FaultProxy(0, b().port());
        one = LockStore.open(uri(a().port(), toB.port(), FreePorts.next()) + PATIENT);
        two = LockStore.open(uri(FreePorts.next(), b().port(), c().port()) + RedlockTckTest.QUERY);
    }

    private static String uri(int first, int second, int third) {
        return "redlock://127.0.0.1:" + first + ",127.0.0.1:" + second + ",127.0.0.1:" + third + "?";
    }

    RedisServer a() {
        return masters.get(0);
    }

    RedisServer b() {
        return masters.get(1);
    }

    RedisServer c() {
        return masters.get(2);
    }

    /** The proxy between client one and master B. */
    FaultProxy proxyToB() {
        return toB;
    }

    /** The client that reaches A and B. */
    LockStore one() {
        return one;
    }

    /** The client that reaches B and C. */
    LockStore two() {
        return two;
    }

    /** A client that reaches all three masters directly. */
    LockStore openOnAll() {
        return LockStore.open(uri(a().port(), b().port(), c().port()) + RedlockTckTest.QUERY);
    }

    /** Sets the counter {@code key} on {@code master} to {@code value}. */
    static void setCounter(RedisServer master, String key, long value) {
        try (RedisProbe probe = new RedisProbe(master.port())) {
            probe.raw().set(key, Long.toString(value));
        }
    }

    @Override
    public void close() throws Exception {
        toB.releaseHeld();
        one.close();
        two.close();
        toB.close();
        masters.forEach(RedisServer::close);
    }
}
