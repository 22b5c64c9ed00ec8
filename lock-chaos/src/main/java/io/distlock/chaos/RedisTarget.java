package io.distlock.chaos;

import io.distlock.tck.fixture.FreePorts;
import io.distlock.tck.fixture.ServerProcess;
import java.time.Duration;
import java.util.List;

/**
 * A redis-server of the run's own on a free port, without persistence (so a restart loses every key, as the design
 * brief's "delayed restart" warns), optionally with distlock's restart guard on.
 */
final class RedisTarget extends ProcessTarget {

    static final Duration LEASE = Duration.ofSeconds(2);

    private final boolean restartGuard;
    private final int port = FreePorts.next();

    RedisTarget(boolean restartGuard) {
        super("redis");
        this.restartGuard = restartGuard;
        start();
    }

    @Override
    protected ServerProcess startServer() {
        return new ServerProcess("redis", List.of("redis-server", "--port", Integer.toString(port), "--bind",
                "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString()), dir, port).start();
    }

    @Override
    public String store() {
        return restartGuard ? "redis (restartGuard)" : "redis";
    }

    @Override
    public String uri(int clientPort) {
        String base = "redis://127.0.0.1:" + clientPort + "?timeout=1s";
        return restartGuard ? base + "&restartGuard=true&maxLeaseTime=" + LEASE.toMillis() + "ms" : base;
    }

    @Override
    public Duration holdBound() {
        return LEASE;
    }
}
