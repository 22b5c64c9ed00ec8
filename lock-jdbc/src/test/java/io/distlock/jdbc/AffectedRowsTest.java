package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Why the MySQL dialect forces {@code useAffectedRows=true}: with Connector/J's default (matched rows), the acquire
 * upsert on a row held by someone else reports 1, the same count as a fresh insert, so a held lock would look
 * granted. With changed rows it reports 0. Shown with the store's own statement on raw connections.
 */
@ExtendWith(Databases.class)
class AffectedRowsTest {

    @Test
    void heldRowsReadAsOneWithMatchedRowsAndZeroWithAffectedRows() throws Exception {
        String table = Databases.uniqueTable("rows");
        String uri = Databases.withOptions(Databases.mysql(), "distlock.table=" + table);
        try (LockStore store = LockStore.open(uri); LockStore other = LockStore.open(uri)) {
            Lease held = store.lock("rows:held").tryAcquire().orElseThrow();
            String upsert = new MySqlDialect(table, false).acquireSql();
            try (Connection matched = DriverManager.getConnection(Databases.mysql());
                    Connection changed = DriverManager.getConnection(Databases.mysql() + "&useAffectedRows=true")) {
                assertThat(run(matched, upsert, "rows:held")).as("default: matched rows, ambiguous").isEqualTo(1);
                assertThat(run(changed, upsert, "rows:held")).as("changed rows: held").isZero();
                assertThat(run(changed, upsert, "rows:fresh")).as("changed rows: inserted").isEqualTo(1);
            }
            assertThat(other.lock("rows:held").tryAcquire()).isEmpty();
            held.release();
            // the lock is free now: a raw takeover reports 2 (changed), and the store sees it held by that token
            try (Connection changed = DriverManager.getConnection(Databases.mysql() + "&useAffectedRows=true")) {
                assertThat(run(changed, upsert, "rows:held")).as("changed rows: taken over").isEqualTo(2);
            }
            assertThat(other.lock("rows:held").tryAcquire()).isEmpty();
        }
    }

    private static int run(Connection c, String upsert, String name) throws Exception {
        try (PreparedStatement ps = c.prepareStatement(upsert)) {
            ps.setString(1, name);
            ps.setString(2, "raw-" + System.nanoTime());
            ps.setLong(3, 30_000_000L);
            ps.setString(4, "AffectedRowsTest");
            return ps.executeUpdate();
        }
    }
}
