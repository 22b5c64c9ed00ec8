package io.distlock.chaos;

import io.distlock.tck.fixture.FreePorts;
import io.distlock.tck.fixture.ServerControl;
import io.distlock.tck.fixture.ServerProcess;
import io.distlock.tck.fixture.TempDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A redis-server of the run's own on a free port and directory, in one of the {@link RedisPersistence} modes,
 * optionally with distlock's restart guard on. A crash is a SIGKILL and a restart from the server's own files (with
 * AOF everysec, first rolled back to what was on disk up to a second earlier).
 */
final class RedisTarget implements StoreTarget {

    static final Duration LEASE = Duration.ofSeconds(2);

    private final boolean restartGuard;
    private final RedisPersistence persistence;
    private final Path dir = TempDirs.create("chaos-redis");
    private final Path data = dir.resolve("data");
    private final int port = FreePorts.next();
    private final ServerProcess server;

    RedisTarget(boolean restartGuard) {
        this(RedisPersistence.NONE, restartGuard);
    }

    RedisTarget(RedisPersistence persistence, boolean restartGuard) {
        this.restartGuard = restartGuard;
        this.persistence = persistence;
        this.server = start();
    }

    private ServerProcess start() {
        List<String> command = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(port), "--bind",
                "127.0.0.1", "--dir", data.toString()));
        command.addAll(persistence.serverOptions());
        try {
            Files.createDirectories(data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ServerProcess("redis", command, dir, port).start();
    }

    /** The name used in the report, e.g. {@code redis (AOF everysec, restartGuard)}. */
    static String name(RedisPersistence persistence, boolean restartGuard) {
        List<String> parts = new ArrayList<>();
        if (!persistence.label().isEmpty()) {
            parts.add(persistence.label());
        }
        if (restartGuard) {
            parts.add("restartGuard");
        }
        return parts.isEmpty() ? "redis" : "redis (" + String.join(", ", parts) + ")";
    }

    @Override
    public String store() {
        return name(persistence, restartGuard);
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

    /** A SIGKILL and a restart from the server's files; with AOF everysec, rolled back to a second earlier first. */
    @Override
    public void crashAndRestart(Duration down) throws InterruptedException {
        if (persistence.rollsBackUnsyncedWrites()) {
            Path synced = dir.resolve("synced");
            TempDirs.delete(synced);
            TempDirs.copy(data, synced);
            // the server goes on writing for up to a second: the writes an OS crash may lose under everysec
            Thread.sleep(ThreadLocalRandom.current().nextLong(1001));
            server.kill();
            TempDirs.delete(data);
            TempDirs.copy(synced, data);
        } else {
            server.kill();
        }
        Thread.sleep(down.toMillis()); // the outage itself
        server.restart();
    }

    @Override
    public Optional<ServerControl> server() {
        return Optional.of(server);
    }

    @Override
    public void close() {
        server.kill();
        TempDirs.delete(dir);
    }
}
