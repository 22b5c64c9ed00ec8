package io.distlock.chaos.explore;

import io.distlock.tck.fixture.ServerControl;
import io.distlock.tck.fixture.TempDirs;
import java.nio.file.Path;

/** A server process whose directory the explorer created: closing the server also deletes the directory. */
final class DirOwningServer implements ServerControl {

    private final ServerControl server;
    private final Path dir;

    DirOwningServer(ServerControl server, Path dir) {
        this.server = server;
        this.dir = dir;
    }

    /** The directory the explorer created for the server. */
    Path directory() {
        return dir;
    }

    @Override
    public int port() {
        return server.port();
    }

    @Override
    public boolean isAlive() {
        return server.isAlive();
    }

    @Override
    public void stop() {
        server.stop();
    }

    @Override
    public void kill() {
        server.kill();
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
    public void restart() {
        server.restart();
    }

    @Override
    public void close() {
        server.close();
        TempDirs.delete(dir);
    }
}
