package io.distlock.chaos;

import io.distlock.tck.fixture.FreePorts;
import io.distlock.tck.fixture.ServerProcess;
import io.distlock.tck.fixture.TempDirs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A redis-server of the run's own on a free port, without persistence (so a restart loses every key, as the design
 * brief's "delayed restart" warns), optionally with distlock's restart guard on.
 */
final class RedisTarget implements StoreTarget {

    static final Duration LEASE = Duration.ofSeconds(2);

    private final boolean restartGuard;
    private final Path dir = TempDirs.create("chaos-redis");
    private final int port = FreePorts.next();
    private ServerProcess server;

    RedisTarget(boolean restartGuard) {
        this.restartGuard = restartGuard;
        start();
    }

    private void start() {
        server = new ServerProcess("redis", List.of("redis-server", "--port", Integer.toString(port), "--bind",
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
    public int port() {
        return port;
    }

    @Override
    public Duration holdBound() {
        return LEASE;
    }

    @Override
    public void crashAndRestart(Duration down) throws InterruptedException {
        server.kill();
        Thread.sleep(down.toMillis()); // the outage itself
        start();
    }

    @Override
    public boolean canPause() {
        return true;
    }

    @Override
    public void pause() {
        server.pause();
    }

    @Override
    public void resume() {
        server.resume();
    }

    @Override
    public void close() {
        server.kill();
        TempDirs.delete(dir);
    }
}
