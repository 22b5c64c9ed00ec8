package io.distlock.jdbc;

import io.distlock.tck.StoreOutage;
import io.distlock.tck.fixture.FreePorts;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The whole kit against H2 in server mode: a TCP server this test starts on a free port, so separate JVMs can
 * join, and stops and starts for the availability rules.
 */
class H2TckTest extends SqlStoreUriTck {

    /**
     * Short timeouts, so the kit's §14.3 bound is tight: a 2 s wait for a pooled connection, 5 s per read (at 2 s,
     * the in-JVM server's answer to a new connection's handshake ran out once in three kit runs on a loaded host).
     */
    static final String TIMEOUTS = "distlock.connectTimeoutMillis=2s&distlock.socketTimeoutMillis=5s";

    /**
     * One operation at {@link #TIMEOUTS}: the 2 s wait for a pooled connection, then two reads of at most 5 s (the
     * pool's check of an idle connection and the statement, both bounded only by the socket timeout on H2).
     */
    static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(12);

    private static H2Server server;
    private static String uri;

    @BeforeAll
    static void startServer() throws SQLException {
        server = new H2Server(Databases.uniqueTable("tck_h2")).start();
        uri = server.url() + "?distlock.table=" + Databases.uniqueTable("tck_h2") + "&" + TIMEOUTS;
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    H2TckTest() {
        super(uri, table -> server.url() + "?distlock.table=" + table + "&" + TIMEOUTS);
    }

    @Override
    protected String storeUri() {
        return uri;
    }

    @Override
    protected Duration operationTimeout() {
        return OPERATION_TIMEOUT;
    }

    @Override
    protected StoreOutage outage() {
        return new StoreOutage() {
            @Override
            public void stop() {
                server.stop();
            }

            @Override
            public void start() throws SQLException {
                server.start();
            }
        };
    }

    @Override
    protected String unreachableStoreUri() {
        return "jdbc:h2:tcp://127.0.0.1:" + FreePorts.next() + "/mem:nothing?" + TIMEOUTS;
    }

    /** H2 reads its password from the {@code ;PASSWORD=} setting (this database has none, so it refuses it). */
    @Override
    public List<String> urisWithSecret(String secret) {
        return List.of(server.url() + ";PASSWORD=" + secret + "?distlock.table=" + Databases.uniqueTable("tck_h2"));
    }
}
