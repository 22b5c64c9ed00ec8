package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.spi.StoreUri;
import io.distlock.spi.Wait;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Adversarial: a store closed while its background sweep waits on a row another transaction keeps locked
 * (PostgreSQL). close() returns without waiting for it, and the sweep's thread ends within its statement bound.
 */
@ExtendWith(Databases.class)
class SweepCloseTest {

    @Test
    void closeDuringASweepStuckOnALockedRowLeavesNoSweeperThread() throws Exception {
        String uri = Databases.withOptions(Databases.postgres(), "distlock.table=" + Databases.uniqueTable("pgc"));
        JdbcSettings settings = JdbcSettings.parse(StoreUri.parse(uri));
        SqlDialect dialect = JdbcLockStoreProvider.dialectFor(settings);
        long sweepersBefore = sweepers();
        JdbcBackend backend = (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri));
        try (Connection operator = DriverManager.getConnection(settings.driverUrl())) {
            backend.release(backend.acquire("probe", Duration.ofMillis(200), Wait.none())); // starts the ticks
            try (PreparedStatement ps = operator.prepareStatement("INSERT INTO " + settings.table()
                    + " (name, fence) VALUES ('locked', " + dialect.fenceSeed() + " - 60000000)")) {
                ps.executeUpdate();
            }
            operator.setAutoCommit(false);
            try (PreparedStatement ps = operator.prepareStatement("SELECT fence FROM " + settings.table()
                    + " WHERE name = 'locked' FOR UPDATE")) {
                ps.executeQuery().close();
            }
            // the first tick (1 s after the grant) waits on the locked row for its 2 s bound
            await().atMost(5, TimeUnit.SECONDS).until(() -> waitingOnLock(operator, settings.table()));
            long start = System.nanoTime();
            backend.close();
            long closeMillis = (System.nanoTime() - start) / 1_000_000;
            assertThat(closeMillis).as("close() while the sweep waits on a row").isLessThan(2_000);
            operator.rollback();
        }
        await().atMost(10, TimeUnit.SECONDS).untilAsserted(() -> assertThat(sweepers())
                .as("sweeper threads after close").isLessThanOrEqualTo(sweepersBefore));
    }

    private static boolean waitingOnLock(Connection operator, String table) throws Exception {
        try (Connection c = DriverManager.getConnection(operator.getMetaData().getURL(), "postgres", null);
                PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM pg_stat_activity WHERE"
                        + " wait_event_type = 'Lock' AND query LIKE ?")) {
            ps.setString(1, "%DELETE FROM " + table + "%");
            try (var rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1) > 0;
            }
        }
    }

    private static long sweepers() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("distlock-jdbc-sweeper") && t.isAlive()).count();
    }
}
