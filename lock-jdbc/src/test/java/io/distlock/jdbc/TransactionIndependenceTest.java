package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.spi.StoreUri;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The store's statements run on their own pooled connections in autocommit: a caller that acquires or releases a
 * lock inside its own open transaction, then rolls that transaction back, keeps the acquisition (or release), while
 * its own work is undone.
 */
@ExtendWith(Databases.class)
class TransactionIndependenceTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.distlock.jdbc.Stores#all")
    void rollingBackTheCallersTransactionUndoesNeitherAcquireNorRelease(String label, String uri) throws Exception {
        JdbcSettings settings = JdbcSettings.parse(StoreUri.parse(uri));
        String appTable = settings.table() + "_app";
        try (LockStore store = LockStore.open(uri); LockStore other = LockStore.open(uri);
                Connection caller = DriverManager.getConnection(settings.driverUrl())) {
            try (Statement st = caller.createStatement()) {
                st.execute("CREATE TABLE " + appTable + " (id INT NOT NULL)");
            }
            caller.setAutoCommit(false);

            // acquire inside the caller's transaction, then roll the transaction back
            insert(caller, appTable, 1);
            Lease lease = store.lock("tx:order-42").tryAcquire().orElseThrow();
            caller.rollback();
            assertThat(count(caller, appTable)).as("the caller's own insert was rolled back").isZero();
            assertThat(other.lock("tx:order-42").tryAcquire()).as("the lock is still held after the rollback")
                    .isEmpty();
            assertThat(store.admin().list("tx:", 10)).extracting(i -> i.name()).containsExactly("tx:order-42");

            // release inside the caller's transaction, then roll the transaction back
            insert(caller, appTable, 2);
            lease.release();
            caller.rollback();
            assertThat(count(caller, appTable)).isZero();
            Lease next = other.lock("tx:order-42").tryAcquire().orElseThrow();
            assertThat(next.fencingToken()).isGreaterThan(lease.fencingToken());
            next.release();

            caller.setAutoCommit(true);
            try (Statement st = caller.createStatement()) {
                st.execute("DROP TABLE " + appTable);
            }
        }
    }

    private static void insert(Connection c, String table, int id) throws Exception {
        try (Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO " + table + " (id) VALUES (" + id + ")");
        }
    }

    private static int count(Connection c, String table) throws Exception {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
