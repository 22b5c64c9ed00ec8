package io.distlock.chaos;

import io.distlock.tck.fixture.PostgresServer;
import java.time.Duration;

/**
 * A PostgreSQL server of the run's own (the kit's {@link PostgresServer}: {@code initdb} into a temporary directory,
 * a free port, trust authentication), so it is crashed (SIGKILL of every server process, then WAL recovery from its
 * own files), paused, and has its lock rows deleted by "an operator".
 */
final class PostgresTarget extends OwnServerTarget<PostgresServer> implements SqlTarget {

    static final Duration LEASE = Duration.ofSeconds(2);

    PostgresTarget() {
        super("postgresql", start(), LEASE);
    }

    private static PostgresServer start() {
        try {
            return PostgresServer.start();
        } catch (Exception e) {
            throw new IllegalStateException("could not start a PostgreSQL server (is PostgreSQL installed?)", e);
        }
    }

    @Override
    public String uri(int clientPort) {
        return "jdbc:postgresql://127.0.0.1:" + clientPort + "/test?user=postgres&" + CLIENT_TIMEOUTS;
    }

    @Override
    public String operatorJdbcUrl() {
        return server.url();
    }

    @Override
    public String nowExpression() {
        return "clock_timestamp()";
    }
}
