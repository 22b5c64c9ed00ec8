package io.distlock.chaos;

import io.distlock.tck.fixture.ServerProcess;
import io.distlock.tck.fixture.TempDirs;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A store target that is one real server process of the run's own (redis-server, mariadbd): crashed with SIGKILL,
 * paused with SIGSTOP, and started again by the subclass's {@link #startServer()} on the same port and directory.
 */
abstract class ProcessTarget implements StoreTarget {

    protected final Path dir;
    private ServerProcess server;

    ProcessTarget(String name) {
        this.dir = TempDirs.create("chaos-" + name);
    }

    /** Starts the server process (again, after a crash) and returns it once it accepts connections. */
    protected abstract ServerProcess startServer();

    protected final void start() {
        server = startServer();
    }

    @Override
    public int port() {
        return server.port();
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
        if (server != null) {
            server.kill();
        }
        TempDirs.delete(dir);
    }
}
