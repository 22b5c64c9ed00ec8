package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.distlock.spi.StoreUri;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A store opening on a lock table that another session keeps locked ({@code LOCK TABLES ... WRITE}: a metadata
 * lock, whose server-side wait {@code lock_wait_timeout} defaults to a day) gives up after its socket timeout; the
 * server must give up too, or every such open leaves a session waiting on the server until the lock goes.
 */
@ExtendWith(Databases.class)
class BlockedSchemaProbeTest {

    @Test
    void aProbeBlockedByAMetadataLockLeavesNoSessionWaitingOnTheServer() throws Exception {
        String table = Databases.uniqueTable("mdl");
        String uri = Databases.withOptions(Databases.mysql(), "distlock.table=" + table);
        open(uri).close(); // the table exists
        String driverUrl = JdbcSettings.parse(StoreUri.parse(Databases.mysql())).driverUrl();
        try (Connection third = DriverManager.getConnection(driverUrl);
                Connection watch = DriverManager.getConnection(driverUrl)) {
            try (Statement st = third.createStatement()) {
                st.execute("LOCK TABLES " + table + " WRITE");
            }
            long start = System.nanoTime();
            Throwable failure = catchThrowable(() -> open(uri + "&distlock.socketTimeoutMillis=1500").close());
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(failure).as("opening on a table locked by another session").isNotNull();
            assertThat(took).as("the failed open").isLessThan(Duration.ofSeconds(6));
            assertThat(failure.getMessage()).doesNotContain("password");
            try {
                Awaitility.await("sessions still waiting on the server for the table's metadata lock")
                        .atMost(Duration.ofSeconds(5)).until(() -> waiting(watch, table) == 0);
            } finally {
                try (Statement st = third.createStatement()) {
                    st.execute("UNLOCK TABLES");
                }
            }
        }
    }

    /**
     * The same on PostgreSQL: another session's open transaction holds {@code ACCESS EXCLUSIVE} on the lock table. A
     * backend waiting on a lock notices its client's departure only when it next talks to it, so the server must bound
     * the wait itself.
     */
    @Test
    void aPostgresProbeBlockedByATableLockLeavesNoBackendWaiting() throws Exception {
        String table = Databases.uniqueTable("pglk");
        String uri = Databases.withOptions(Databases.postgres(), "distlock.table=" + table);
        open(uri).close();
        String driverUrl = JdbcSettings.parse(StoreUri.parse(Databases.postgres())).driverUrl();
        try (Connection third = DriverManager.getConnection(driverUrl);
                Connection watch = DriverManager.getConnection(driverUrl)) {
            third.setAutoCommit(false);
            try (Statement st = third.createStatement()) {
                st.execute("LOCK TABLE " + table + " IN ACCESS EXCLUSIVE MODE");
            }
            long start = System.nanoTime();
            Throwable failure = catchThrowable(() -> open(uri + "&distlock.socketTimeoutMillis=1500").close());
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(failure).as("opening on a table locked by another session").isNotNull();
            assertThat(took).as("the failed open").isLessThan(Duration.ofSeconds(6));
            try {
                Awaitility.await("backends still waiting on the server for the table's lock")
                        .atMost(Duration.ofSeconds(5)).until(() -> waitingPostgres(watch, table) == 0);
            } finally {
                third.rollback();
            }
        }
    }

    private static int waitingPostgres(Connection c, String table) throws Exception {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_stat_activity"
                + " WHERE wait_event_type = 'Lock' AND query LIKE '%" + table + " %'")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static int waiting(Connection c, String table) throws Exception {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM"
                + " information_schema.PROCESSLIST WHERE STATE LIKE '%metadata lock%' AND INFO LIKE '%" + table + "%'")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static JdbcBackend open(String uri) {
        return (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri));
    }
}
