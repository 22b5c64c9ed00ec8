package io.distlock.chaos;

import java.time.Duration;

/**
 * This machine's PostgreSQL (127.0.0.1:5432, database {@code test}, trust auth), for the client and network faults.
 * It is shared with other work, so the run never crashes or pauses it; each run uses its own lock name.
 */
final class PostgresTarget implements StoreTarget {

    static final Duration LEASE = Duration.ofSeconds(2);

    @Override
    public String store() {
        return "postgresql";
    }

    @Override
    public String uri(int clientPort) {
        return "jdbc:postgresql://127.0.0.1:" + clientPort + "/test?user=postgres"
                + "&distlock.connectTimeoutMillis=1500&distlock.socketTimeoutMillis=1500";
    }

    @Override
    public int port() {
        return 5432;
    }

    @Override
    public Duration holdBound() {
        return LEASE;
    }

    @Override
    public boolean canCrash() {
        return false;
    }

    @Override
    public void crashAndRestart(Duration down) {
        throw new UnsupportedOperationException("the shared PostgreSQL is not crashed by the fault suite");
    }

    @Override
    public boolean canPause() {
        return false;
    }

    @Override
    public void pause() {
        throw new UnsupportedOperationException("the shared PostgreSQL is not paused by the fault suite");
    }

    @Override
    public void resume() {
        throw new UnsupportedOperationException("the shared PostgreSQL is not paused by the fault suite");
    }

    @Override
    public void close() {
        // nothing started, nothing to stop
    }
}
