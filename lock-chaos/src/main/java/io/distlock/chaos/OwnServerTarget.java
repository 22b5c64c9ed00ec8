package io.distlock.chaos;

import io.distlock.tck.fixture.ServerControl;
import java.time.Duration;
import java.util.Optional;

/**
 * A target whose server crash and pause hit the one server the run owns (a kit fixture): its report name, port, hold
 * bound and server control are the same accessors on every such target, so a subclass says only how clients reach it.
 * Closing it closes the server; a subclass with more to clean up overrides {@link #close()}.
 */
abstract class OwnServerTarget<S extends ServerControl> implements StoreTarget {

    private final String store;
    private final Duration holdBound;
    protected final S server;

    OwnServerTarget(String store, S server, Duration holdBound) {
        this.store = store;
        this.server = server;
        this.holdBound = holdBound;
    }

    @Override
    public String store() {
        return store;
    }

    @Override
    public int port() {
        return server.port();
    }

    @Override
    public Duration holdBound() {
        return holdBound;
    }

    @Override
    public Optional<ServerControl> server() {
        return Optional.of(server);
    }

    @Override
    public void close() {
        server.close();
    }
}
