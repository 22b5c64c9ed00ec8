package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.spi.Grant;
import io.distlock.spi.StoreUri;
import io.distlock.spi.Wait;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Stores that share no in-JVM turn of {@link SchemaChanges} (one spelling of an H2 TCP server's database each, as
 * stores of different JVMs are) opening on a fresh database and taking a permit at once: what S67's fix cannot cover.
 * FAILS INTERMITTENTLY on r12-jdbcreview (H2 2.3.232; 2 of 4 runs at load 6-9, one at round 164): "Table
 * ..._PERMITS not found" from an acquire after its store's {@code ensureTable} returned, or an H2
 * {@code NullPointerException} ("this.transaction is null") from the driver's {@code INFORMATION_SCHEMA.SESSIONS}
 * query while a pool's first connection is set up (the H2 server's, not distlock's, code). Left for a decision: a
 * documented limit (README, "Creating at once") or a fix; the mechanism of the first is not established.
 */
class H2TcpSchemaRaceTest {

    private static final int ROUNDS = Integer.getInteger("h2race.rounds", 2000);
    private static final Duration BOUND = Duration.ofSeconds(20);

    @Test
    void storesOnDifferentlyWrittenUrlsOfOneH2ServerCreatingTheSameTablesAtOnce() throws Exception {
        int n = 6;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try (H2Server server = new H2Server("unused").start()) {
            for (int round = 0; round < ROUNDS; round++) {
                String table = Databases.uniqueTable("tcp");
                List<Future<Grant>> grants = new ArrayList<>();
                List<JdbcBackend> opened = java.util.Collections.synchronizedList(new ArrayList<>());
                CountDownLatch start = new CountDownLatch(1);
                for (int i = 0; i < n; i++) {
                    // a spelling of the database per store: their metadata URLs differ, so they share no in-JVM
                    // turn, as stores of different JVMs
                    String host = i == 0 ? "localhost" : "127.0.0." + i;
                    String uri = "jdbc:h2:tcp://" + host + ":" + server.port() + "/mem:" + table
                            + ";DB_CLOSE_DELAY=-1?distlock.table=" + table;
                    grants.add(pool.submit(() -> {
                        start.await();
                        JdbcBackend b = open(uri);
                        opened.add(b);
                        return b.acquirePermit("first", n, Duration.ofSeconds(5), Wait.upTo(BOUND));
                    }));
                }
                start.countDown();
                try {
                    for (Future<Grant> g : grants) {
                        try {
                            assertThat(g.get(BOUND.toSeconds() * 2, TimeUnit.SECONDS)).as("round %d", round)
                                    .isNotNull();
                        } catch (java.util.concurrent.ExecutionException e) {
                            throw new AssertionError("round " + round + ": " + e.getCause(), e.getCause());
                        }
                    }
                } finally {
                    opened.forEach(JdbcBackend::close);
                }
                shutdown("jdbc:h2:tcp://127.0.0.1:" + server.port() + "/mem:" + table);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Drops an in-memory database kept by DB_CLOSE_DELAY=-1. */
    private static void shutdown(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
            st.execute("SHUTDOWN");
        }
    }

    private static JdbcBackend open(String uri) {
        return (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri));
    }
}
