package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.DistributedSemaphore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The database forgets its last commits: a crash with a write delay (H2's WRITE_DELAY, PostgreSQL's
 * {@code synchronous_commit=off}, InnoDB's {@code innodb_flush_log_at_trx_commit=0/2}), a restore from backup or a
 * replica promotion leaves the fence column at an older value than the tokens already granted. The next holder must
 * still get a token above every token granted before, for locks and for semaphores.
 */
@ExtendWith(Databases.class)
class FenceAfterLostCommitTest {

    private static final int GRANTS = 4;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.distlock.jdbc.FenceAfterRowDeletionTest#databases")
    void aLockGrantsATokenAboveEveryEarlierOneAfterTheFenceGoesBack(String label, String uri) throws Exception {
        JdbcSettings settings = JdbcSettings.parse(io.distlock.spi.StoreUri.parse(uri));
        try (LockStore store = LockStore.open(uri)) {
            long first = 0;
            long highest = 0;
            for (int i = 0; i < GRANTS; i++) {
                try (Lease lease = store.lock("lost:commit").acquire()) {
                    first = i == 0 ? lease.fencingToken() : first;
                    highest = Math.max(highest, lease.fencingToken());
                }
            }
            rollFenceBack(settings, "UPDATE " + settings.table() + " SET fence = ? WHERE name = ?", first);
            try (Lease lease = store.lock("lost:commit").acquire()) {
                assertThat(lease.fencingToken()).as("token after the fence went back from %d to %d", highest, first)
                        .isGreaterThan(highest);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.distlock.jdbc.FenceAfterRowDeletionTest#databases")
    void aSemaphoreGrantsATokenAboveEveryEarlierOneAfterTheFenceGoesBack(String label, String uri)
            throws Exception {
        JdbcSettings settings = JdbcSettings.parse(io.distlock.spi.StoreUri.parse(uri));
        try (LockStore store = LockStore.open(uri)) {
            DistributedSemaphore semaphore = store.semaphore("lost:commit", 2);
            long first = 0;
            long highest = 0;
            for (int i = 0; i < GRANTS; i++) {
                try (Lease lease = semaphore.acquire()) {
                    first = i == 0 ? lease.fencingToken() : first;
                    highest = Math.max(highest, lease.fencingToken());
                }
            }
            // every row of the name, counter and permit slots alike, as an older copy of the table has them
            rollFenceBack(settings, "UPDATE " + settings.table() + "_permits SET fence = ? WHERE name = ?", first);
            try (Lease lease = semaphore.acquire()) {
                assertThat(lease.fencingToken()).as("token after the fence went back from %d to %d", highest, first)
                        .isGreaterThan(highest);
            }
        }
    }

    private static void rollFenceBack(JdbcSettings settings, String sql, long older) throws Exception {
        try (Connection c = DriverManager.getConnection(settings.driverUrl());
                PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, older);
            ps.setString(2, "lost:commit");
            assertThat(ps.executeUpdate()).as("rows rolled back").isPositive();
        }
    }
}
