package io.distlock.redis;

import io.distlock.tck.fixture.FreePorts;
import io.distlock.tck.fixture.ServerProcess;
import io.distlock.tck.fixture.TempDirs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * A {@code redis-server} owned by a test: started on a free port without persistence ({@code --save ""
 * --appendonly no}) in a temporary directory, so it can be stopped, killed, paused and restarted (losing its data)
 * without touching the shared server. Extra arguments (for example {@code --cluster-enabled yes}) can be added.
 */
final class RedisServer implements AutoCloseable {

    private final Path directory;
    private final int port;
    private final List<String> extraArgs;
    private final Path configFile;
    private ServerProcess process;

    private RedisServer(List<String> extraArgs, String config) {
        this.directory = TempDirs.create("redis");
        this.port = FreePorts.next();
        this.extraArgs = withClusterPort(extraArgs);
        if (config == null) {
            this.configFile = null;
        } else {
            this.configFile = directory.resolve("redis.conf");
            try {
                java.nio.file.Files.writeString(configFile, config);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    /**
     * {@code args}, and for a Cluster node a bus port of its own: by default Redis takes the port plus 10000, which
     * nobody checked was free (a Cluster test failed on "bind: Address already in use" for it). Chosen once, so a
     * restarted node keeps the bus port the other nodes know.
     */
    private static List<String> withClusterPort(List<String> args) {
        if (!args.contains("--cluster-enabled") || args.contains("--cluster-port")) {
            return List.copyOf(args);
        }
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of("--cluster-port", Integer.toString(FreePorts.next())));
        return List.copyOf(all);
    }

    /** Starts a new server on a free port; skips the test if no redis-server binary is installed. */
    static RedisServer start(String... extraArgs) {
        Assumptions.assumeTrue(ServerProcess.findBinary("redis-server").isPresent(),
                "skipped: no redis-server binary on the PATH");
        RedisServer server = new RedisServer(List.of(extraArgs), null);
        server.startProcess();
        return server;
    }

    /** Starts a Sentinel on a free port that monitors {@code masterName} at {@code masterPort}, quorum 2. */
    static RedisServer startSentinel(String masterName, int masterPort) {
        Assumptions.assumeTrue(ServerProcess.findBinary("redis-server").isPresent(),
                "skipped: no redis-server binary on the PATH");
        RedisServer server = new RedisServer(List.of("--sentinel"), "sentinel monitor " + masterName
                + " 127.0.0.1 " + masterPort + " 2\n"
                + "sentinel down-after-milliseconds " + masterName + " 1000\n"
                + "sentinel failover-timeout " + masterName + " 5000\n"
                + "sentinel parallel-syncs " + masterName + " 1\n");
        server.startProcess();
        return server;
    }

    private void startProcess() {
        List<String> command = new ArrayList<>();
        command.add(ServerProcess.findBinary("redis-server").orElseThrow().toString());
        if (configFile != null) {
            command.add(configFile.toString()); // a Sentinel rewrites its config file: it must be a real file
        }
        command.addAll(List.of("--port", Integer.toString(port), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no", "--dir", directory.toString()));
        command.addAll(extraArgs);
        process = new ServerProcess("redis-" + port, command, directory, port).start(Duration.ofSeconds(30));
        awaitDataLoaded();
    }

    /**
     * Waits until the server has loaded its files: an open port is not enough after a restart, since a server still
     * loading its RDB or AOF file answers every command with {@code LOADING} (a password-protected one answers
     * {@code NOAUTH} once loaded, which counts as ready).
     */
    private void awaitDataLoaded() {
        Awaitility.await("redis-" + port + " has loaded its data").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(20)).until(() -> {
                    try (RedisProbe probe = new RedisProbe(port)) {
                        probe.raw().ping();
                        return true;
                    } catch (JedisDataException e) {
                        return e.getMessage() == null || !e.getMessage().startsWith("LOADING"); // NOAUTH: it answers
                    }
                });
    }

    /** The server's port. */
    int port() {
        return port;
    }

    /** {@code redis://127.0.0.1:PORT} plus {@code query} (without '?', may be empty). */
    String uri(String query) {
        return "redis://127.0.0.1:" + port + (query.isEmpty() ? "" : "?" + query);
    }

    /** Stops the server (SIGTERM); its data is gone, it has no persistence. */
    void stop() {
        process.stop();
    }

    /** Kills the server (SIGKILL). */
    void kill() {
        process.kill();
    }

    /** Starts the server again on the same port, empty. */
    void restart() {
        process.stop();
        startProcess();
    }

    /** Starts a stopped server again on the same port. */
    void startAgain() {
        startProcess();
    }

    /**
     * Crashes the server (SIGKILL: no shutdown save, no final fsync) and starts it again on the same port, in the
     * same directory with the same arguments, so it loads whatever its RDB or AOF files hold.
     */
    void crashAndRestartFromFiles() {
        process.kill();
        startProcess();
    }

    /** The server's working directory (its RDB and AOF files live here). */
    Path directory() {
        return directory;
    }

    /** The process fixture, for pause/resume. */
    ServerProcess process() {
        return process;
    }

    @Override
    public void close() {
        if (process != null) {
            process.stop();
        }
        TempDirs.delete(directory);
    }
}
