package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.spi.Grant;
import io.distlock.spi.StoreUri;
import io.distlock.spi.Wait;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A semaphore waiter polls the database no more often than the store's {@code distlock.pollMinMillis} and
 * {@code distlock.pollMaxMillis} say, as a lock waiter does: it used a fixed back-off from 2 ms to 250 ms whatever
 * the store's settings (DEFECTS S68). Counted on H2, whose query statistics count each statement the waiter sends.
 */
class SemaphorePollTest {

    @Test
    void aSemaphoreWaiterPollsAtTheStoresPollSettings() throws Exception {
        String db = "jdbc:h2:mem:" + Databases.uniqueTable("poll") + ";DB_CLOSE_DELAY=-1";
        String uri = db + "?distlock.pollMinMillis=1000&distlock.pollMaxMillis=1000";
        try (JdbcBackend holder = open(uri); JdbcBackend waiter = open(uri + "&distlock.poolSize=2");
                Connection c = DriverManager.getConnection(db)) {
            Grant held = holder.acquirePermit("s", 1, Duration.ofSeconds(60), Wait.none());
            assertThat(held).isNotNull();
            try (Statement st = c.createStatement()) {
                st.execute("SET QUERY_STATISTICS TRUE");
            }
            assertThat(waiter.acquirePermit("s", 1, Duration.ofSeconds(60), Wait.none())).isNull();
            long perAttempt = permitStatements(c);
            assertThat(perAttempt).as("statements of one attempt on a full semaphore").isPositive();

            // 1.5 s of waiting at polls 0.5-1 s apart: the first attempt and at most two polls (a 2 ms..250 ms
            // back-off made about a dozen)
            assertThat(waiter.acquirePermit("s", 1, Duration.ofSeconds(60), Wait.upTo(Duration.ofMillis(1500))))
                    .isNull();
            long attempts = (permitStatements(c) - perAttempt) / perAttempt;
            assertThat(attempts).as("attempts of a waiter polling 0.5-1 s apart, in 1.5 s").isBetween(1L, 3L);
            assertThat(holder.releasePermit(held)).isTrue();
        }
    }

    /** How many statements on the permit table the database has executed since statistics were turned on. */
    private static long permitStatements(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COALESCE(SUM(EXECUTION_COUNT), 0)"
                + " FROM INFORMATION_SCHEMA.QUERY_STATISTICS WHERE UPPER(SQL_STATEMENT) LIKE '%_PERMITS%'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static JdbcBackend open(String uri) {
        return (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri));
    }
}
