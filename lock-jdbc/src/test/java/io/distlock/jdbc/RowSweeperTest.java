package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.spi.StoreUri;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the store's sweep of unused names ({@link RowSweeper}) deletes and what it keeps, on rows written as each
 * case needs (times from the database's clock): it deletes free rows and rows expired longer than the grace ago
 * whose fence the clock has passed, and semaphores with no permit held; it keeps held rows, rows expired within the
 * grace, counters ahead of the clock, and a row another transaction keeps locked, without costing the other names
 * their clean-up; that row goes at the next sweep once the transaction ended (the row expired within the grace may
 * have aged past it by then: the first sweep waited out the locked row's bound).
 */
@ExtendWith(Databases.class)
class RowSweeperTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.distlock.jdbc.Stores#all")
    void deletesOnlyRowsNobodyHoldsWhoseFenceTheClockHasPassed(String label, String uri) throws Exception {
        JdbcSettings settings = JdbcSettings.parse(StoreUri.parse(uri));
        SqlDialect dialect = JdbcLockStoreProvider.dialectFor(settings);
        try (JdbcBackend backend = (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri));
                Connection c = DriverManager.getConnection(settings.driverUrl());
                Connection operator = DriverManager.getConnection(settings.driverUrl())) {
            // the permit table exists once a semaphore was used
            backend.acquirePermit("probe", 1, java.time.Duration.ofSeconds(1), io.distlock.spi.Wait.none());
            String locks = settings.table();
            String permits = locks + JdbcPermits.TABLE_SUFFIX;
            long graceMicros = RowSweeper.GRACE.toNanos() / 1000;
            String lockRow = "INSERT INTO " + locks + " (name, owner_token, fence, expires_at) VALUES (?, ?, "
                    + dialect.fenceSeed() + " + ?, " + dialect.nowPlusMicros() + ")";
            Object[][] lockRows = {
                {"held", "t1", -60_000_000L, 60_000_000L},
                {"expired within grace", "t2", -60_000_000L, -graceMicros / 4},
                {"expired long ago", "t3", -60_000_000L, -10 * graceMicros},
                {"free", null, -60_000_000L, null},
                {"free, fence ahead", null, 60_000_000L, null},
                {"free, locked by an operator", null, -60_000_000L, null},
            };
            for (Object[] row : lockRows) {
                try (PreparedStatement ps = c.prepareStatement(lockRow)) {
                    ps.setString(1, (String) row[0]);
                    ps.setString(2, (String) row[1]);
                    ps.setLong(3, (Long) row[2]);
                    ps.setObject(4, row[3] == null ? -1L : row[3]);
                    ps.executeUpdate();
                }
                if (row[1] == null) {
                    execute(c, "UPDATE " + locks + " SET expires_at = NULL WHERE name = ?", (String) row[0]);
                }
            }
            String permitRow = "INSERT INTO " + permits + " (name, slot, owner_token, fence, expires_at, permits)"
                    + " VALUES (?, ?, ?, " + dialect.fenceSeed() + " + ?, " + dialect.nowPlusMicros() + ", 2)";
            Object[][] permitRows = {
                {"sem held", 0, null, -60_000_000L, 0L}, {"sem held", 1, "p1", -60_000_000L, 60_000_000L},
                {"sem free", 0, null, -60_000_000L, 0L}, {"sem free", 1, null, -60_000_000L, -10 * graceMicros},
                {"sem ahead", 0, null, 60_000_000L, 0L},
            };
            for (Object[] row : permitRows) {
                try (PreparedStatement ps = c.prepareStatement(permitRow)) {
                    ps.setString(1, (String) row[0]);
                    ps.setInt(2, (Integer) row[1]);
                    ps.setString(3, (String) row[2]);
                    ps.setLong(4, (Long) row[3]);
                    ps.setLong(5, (Long) row[4]);
                    ps.executeUpdate();
                }
            }
            // the operator's lock on PostgreSQL only: the sweep skips the row after its statement bound there (2 s),
            // where H2 waits out its lock timeout (10 s) and MariaDB its statement bound plus the kill: the same
            // code path, at a cost the default build does not need to pay three times
            boolean locking = label.equals("postgresql");
            operator.setAutoCommit(false);
            try (PreparedStatement lock = operator.prepareStatement(
                    "SELECT fence FROM " + locks + " WHERE name = ? FOR UPDATE")) {
                lock.setString(1, locking ? "free, locked by an operator" : "no such name");
                lock.executeQuery().close();
            }

            backend.sweepNow();
            List<String> kept = new ArrayList<>(List.of("held", "expired within grace", "free, fence ahead"));
            if (locking) {
                kept.add("free, locked by an operator");
            }
            assertThat(names(c, locks)).as("lock rows kept on %s", label).containsExactlyInAnyOrderElementsOf(kept);
            assertThat(names(c, permits)).as("semaphores kept on %s", label)
                    .containsExactlyInAnyOrder("sem held", "sem held", "sem ahead");

            operator.commit();
            backend.sweepNow();
            assertThat(names(c, locks)).as("lock rows kept on %s once the operator's transaction ended", label)
                    .contains("held", "free, fence ahead").doesNotContain("free, locked by an operator");
        }
    }

    private static void execute(Connection c, String sql, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, name);
            ps.executeUpdate();
        }
    }

    private static List<String> names(Connection c, String table) throws SQLException {
        List<String> names = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT name FROM " + table + " WHERE name <> 'probe'");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }
}
