package io.distlock.redis;

import io.distlock.tck.fixture.FreePorts;
import io.distlock.tck.fixture.ServerProcess;
import io.distlock.tck.fixture.TempDirs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * A {@code redis-server} owned by a test: started on a free port without persistence ({@code --save ""
 * --appendonly no}) in a temporary directory, so it can be stopped, killed, paused and restarted (losing its data)
 * without touching the shared server. Extra arguments (for example {@code --cluster-enabled yes}) can be added.
 */
final class RedisServer implements AutoCloseable {

    private final Path directory;
    private final int port;
    private final List<String> extraArgs;
    private ServerProcess process;

    private RedisServer(List<String> extraArgs) {
        this.directory = TempDirs.create("redis");
        this.port = FreePorts.next();
        this.extraArgs = List.copyOf(extraArgs);
    }

    /** Starts a new server on a free port; skips the test if no redis-server binary is installed. */
    static RedisServer start(String... extraArgs) {
        Assumptions.assumeTrue(ServerProcess.findBinary("redis-server").isPresent(),
                "skipped: no redis-server binary on the PATH");
        RedisServer server = new RedisServer(List.of(extraArgs));
        server.startProcess();
        return server;
    }

    private void startProcess() {
        List<String> command = new ArrayList<>(List.of(ServerProcess.findBinary("redis-server").orElseThrow()
                .toString(), "--port", Integer.toString(port), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no", "--dir", directory.toString()));
        command.addAll(extraArgs);
        process = new ServerProcess("redis-" + port, command, directory, port).start(Duration.ofSeconds(30));
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
