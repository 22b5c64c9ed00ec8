package io.distlock.chaos;

import io.distlock.tck.fixture.PostgresServer;
import io.distlock.tck.fixture.ServerControl;
import java.time.Duration;
import java.util.Optional;

/**
 * A PostgreSQL server of the run's own (the kit's {@link PostgresServer}: {@code initdb} into a temporary directory,
 * a free port, trust authentication), so it is crashed (SIGKILL of every server process, then WAL recovery from its
 * own files), paused, and has its lock rows deleted by "an operator".
 */
final class PostgresTarget implements SqlTarget {

    static final Duration LEASE = Duration.ofSeconds(2);

    private final PostgresServer server;

    PostgresTarget() {
        try {
            server = PostgresServer.start();
        } catch (Exception e) {
            throw new IllegalStateException("could not start a PostgreSQL server (is PostgreSQL installed?)", e);
        }
    }

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
    public String operatorJdbcUrl() {
        return server.url();
    }

    @Override
    public String nowExpression() {
        return "clock_timestamp()";
    }

    @Override
    public int port() {
        return server.port();
    }

    @Override
    public Duration holdBound() {
        return LEASE;
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
