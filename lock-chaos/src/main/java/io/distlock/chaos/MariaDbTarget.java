package io.distlock.chaos;

import io.distlock.tck.fixture.MariaDbServer;
import java.time.Duration;

/**
 * A MariaDB server of the run's own (the kit's {@link MariaDbServer}: a fresh data directory, a free port, root
 * without password). InnoDB keeps committed rows across a crash, so a restart keeps the lock table, as a production
 * database would. Its lock rows can be deleted by "an operator" between holders.
 */
final class MariaDbTarget extends OwnServerTarget<MariaDbServer> implements SqlTarget {

    static final Duration LEASE = Duration.ofSeconds(2);

    MariaDbTarget() {
        super("mariadb", start(), LEASE);
    }

    private static MariaDbServer start() {
        try {
            return MariaDbServer.start();
        } catch (Exception e) {
            throw new IllegalStateException("could not start a MariaDB server (is MariaDB installed?)", e);
        }
    }

    @Override
    public String uri(int clientPort) {
        return "jdbc:mysql://127.0.0.1:" + clientPort + "/test?user=root&" + CLIENT_TIMEOUTS;
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
    public void close() {
        server.kill();
        super.close();
    }
}
