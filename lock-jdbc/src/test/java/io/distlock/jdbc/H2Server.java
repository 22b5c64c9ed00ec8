package io.distlock.jdbc;

import io.distlock.tck.fixture.FreePorts;
import java.sql.SQLException;
import org.h2.tools.Server;

/**
 * An H2 TCP server in this JVM on a free port, serving one in-memory database that outlives its connections
 * ({@code DB_CLOSE_DELAY=-1}), so other JVMs can join and the server can be stopped and started again on the same
 * port without losing the table.
 */
final class H2Server implements AutoCloseable {

    private final int port = FreePorts.next();
    private final String database;
    private Server server;

    H2Server(String database) {
        this.database = database;
    }

    /** Starts (or restarts) the server. */
    H2Server start() throws SQLException {
        server = Server.createTcpServer("-tcpPort", Integer.toString(port), "-ifNotExists").start();
        return this;
    }

    /** Stops the server; connections through it break, the in-memory database stays. */
    void stop() {
        if (server != null) {
            server.stop();
            server = null;
        }
    }

    /** The server's TCP port. */
    int port() {
        return port;
    }

    /** The JDBC URL of the database, for this and other JVMs. */
    String url() {
        return "jdbc:h2:tcp://127.0.0.1:" + port + "/mem:" + database + ";DB_CLOSE_DELAY=-1";
    }

    @Override
    public void close() {
        stop();
    }
}
