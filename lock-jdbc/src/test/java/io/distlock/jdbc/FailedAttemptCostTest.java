package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.spi.StoreUri;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On PostgreSQL an acquire attempt that finds the lock held changes nothing, so it must cost nothing a holder
 * waits for: no row lock (the holder's release would queue behind it until it commits) and no transaction id
 * (its commit would then wait for a WAL flush). Shown by running the store's own acquire statement on a held row
 * in an open transaction, then looking from a second connection.
 */
@ExtendWith(Databases.class)
class FailedAttemptCostTest {

    @Test
    void anAttemptOnAHeldLockTakesNoRowLockAndNoTransactionId() throws Exception {
        String table = Databases.uniqueTable("attempt");
        String uri = Databases.withOptions(Databases.postgres(), "distlock.table=" + table);
        String driverUrl = JdbcSettings.parse(StoreUri.parse(uri)).driverUrl();
        try (LockStore store = LockStore.open(uri)) {
            Lease held = store.lock("attempt:held").tryAcquire().orElseThrow();
            try (Connection attempt = DriverManager.getConnection(driverUrl);
                    Connection holder = DriverManager.getConnection(driverUrl)) {
                attempt.setAutoCommit(false);
                long fence = new PostgresDialect(table).acquire(attempt, "attempt:held", "other-token",
                        "FailedAttemptCostTest", 30_000_000L);
                assertThat(fence).as("the lock is held: no fence").isZero();
                try (Statement s = attempt.createStatement();
                        ResultSet r = s.executeQuery("SELECT pg_current_xact_id_if_assigned()")) {
                    r.next();
                    assertThat(r.getString(1)).as("transaction id of the failed attempt").isNull();
                }
                try (Statement s = holder.createStatement()) {
                    s.execute("SET lock_timeout = '2s'");
                    assertThat(s.executeUpdate("UPDATE " + table + " SET owner = owner WHERE name = 'attempt:held'"))
                            .as("the holder's row is not locked by the failed attempt").isEqualTo(1);
                }
                attempt.rollback();
            }
            held.release();
        }
    }
}
