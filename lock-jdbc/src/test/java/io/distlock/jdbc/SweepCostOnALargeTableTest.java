package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.spi.StoreUri;
import io.distlock.spi.Wait;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Adversarial: the cost of one sweep ({@link RowSweeper}, every second in every process that grants) on a large lock
 * table whose names are all held, so there is nothing to delete. The work of a tick should be bounded by its batches
 * ({@value RowSweeper#WALK} names walked, {@value RowSweeper#BATCHES} batches), not grow with the table: measured on
 * MariaDB by the server's global row reads ({@code Handler_read_rnd_next} + {@code Handler_read_next}), which other
 * sessions can only add to.
 */
@ExtendWith(Databases.class)
class SweepCostOnALargeTableTest {

    private static final int HELD_ROWS = 200_000;

    @Test
    void oneSweepOfATableOfHeldNamesReadsRowsBoundedByItsBatchesNotTheTable() throws Exception {
        String table = Databases.uniqueTable("big");
        String uri = Databases.withOptions(Databases.mysql(), "distlock.table=" + table);
        JdbcSettings settings = JdbcSettings.parse(StoreUri.parse(uri));
        try (JdbcBackend backend = (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri));
                Connection c = DriverManager.getConnection(settings.driverUrl());
                Statement s = c.createStatement()) {
            backend.release(backend.acquire("probe", Duration.ofSeconds(1), Wait.none())); // the table exists
            s.executeUpdate("INSERT INTO " + table + " (name, owner_token, fence, expires_at, owner, acquired_at)"
                    + " SELECT CONCAT('order:', seq), MD5(seq), CAST(UNIX_TIMESTAMP(NOW(6)) * 1000000 AS SIGNED)"
                    + " - 60000000, NOW(3) + INTERVAL 1 HOUR, '4242@app-host-01 worker-1', NOW(3)"
                    + " FROM seq_1_to_" + HELD_ROWS);
            long before = rowReads(s);
            int deleted = backend.sweepNow();
            long read = rowReads(s) - before;
            assertThat(deleted).isZero();
            int bound = 2 * RowSweeper.WALK * RowSweeper.BATCHES;
            assertThat(read).as("rows the server read for one sweep of %d held names (bound %d)", HELD_ROWS, bound)
                    .isLessThanOrEqualTo(bound);
        } finally {
            try (Connection c = DriverManager.getConnection(settings(uri).driverUrl());
                    Statement s = c.createStatement()) {
                s.executeUpdate("DROP TABLE IF EXISTS " + table);
                s.executeUpdate("DROP TABLE IF EXISTS " + table + JdbcPermits.TABLE_SUFFIX);
            }
        }
    }

    private static JdbcSettings settings(String uri) {
        return JdbcSettings.parse(StoreUri.parse(uri));
    }

    private static long rowReads(Statement s) throws SQLException {
        long sum = 0;
        try (ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS WHERE Variable_name IN"
                + " ('Handler_read_rnd_next', 'Handler_read_next')")) {
            while (rs.next()) {
                sum += rs.getLong(2);
            }
        }
        return sum;
    }
}
