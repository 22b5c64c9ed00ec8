package io.distlock.chaos;

import io.distlock.tck.fixture.MariaDbServer;
import io.distlock.tck.fixture.ServerControl;
import java.time.Duration;
import java.util.Optional;

/**
 * A MariaDB server of the run's own (the kit's {@link MariaDbServer}: a fresh data directory, a free port, root
 * without password). InnoDB keeps committed rows across a crash, so a restart keeps the lock table, as a production
 * database would. Its lock rows can be deleted by "an operator" between holders.
 */
final class MariaDbTarget implements SqlTarget {

    static final Duration LEASE = Duration.ofSeconds(2);

    private final MariaDbServer server;

    MariaDbTarget() {
        try {
            server = MariaDbServer.start();
        } catch (Exception e) {
            throw new IllegalStateException("could not start a MariaDB server (is MariaDB installed?)", e);
        }
    }

    @Override
    public String store() {
        return "mariadb";
    }

    @Override
    public String uri(int clientPort) {
        return "jdbc:mysql://127.0.0.1:" + clientPort + "/test?user=root&distlock.connectTimeoutMillis=1500"
                + "&distlock.socketTimeoutMillis=1500";
    }

    @Override
    public String operatorJdbcUrl() {
        return server.url();
    }

    @Override
    public String nowExpression() {
        return "NOW(3)";
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
        server.kill();
        server.close();
    }
}
