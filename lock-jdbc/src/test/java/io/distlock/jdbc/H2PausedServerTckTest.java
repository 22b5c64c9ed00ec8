package io.distlock.jdbc;

import java.time.Duration;

/**
 * The paused-server kit ({@link PausedServerTckBase}) against an H2 server this test starts ({@link H2TckTest}
 * stops its server instead, which resets every connection).
 */
class H2PausedServerTckTest extends PausedServerTckBase {

    private H2Server server;

    @Override
    protected String openDirectUri() throws Exception {
        String table = Databases.uniqueTable("tck_h2_paused");
        server = new H2Server(table).start();
        return server.url() + "?distlock.table=" + table + "&" + H2TckTest.TIMEOUTS;
    }

    @Override
    protected void closeServer() {
        server.close();
    }

    /** The same timeouts as {@link H2TckTest}'s, so the same bound. */
    @Override
    protected Duration operationTimeout() {
        return H2TckTest.OPERATION_TIMEOUT;
    }
}
