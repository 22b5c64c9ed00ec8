package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * A lock table named like another store's permit table ({@code <table>_permits}) is refused at open, so two stores
 * never share one table (§21); a lock table of such a name that already exists keeps working.
 */
class DerivedTableNameTest {

    private final String db = "jdbc:h2:mem:" + Databases.uniqueTable("derived") + ";DB_CLOSE_DELAY=-1";

    @Test
    void aNewLockTableNamedLikeAPermitTableIsRefusedNamingTheSetting() {
        assertThatThrownBy(() -> LockStore.open(db + "?distlock.table=app_permits").close())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("distlock.table 'app_permits'").hasMessageContaining("'app'");
    }

    @Test
    void anotherStoresPermitTableIsRefusedAsALockTable() {
        try (LockStore app = LockStore.open(db + "?distlock.table=app")) {
            Lease permit = app.semaphore("s", 1).tryAcquire().orElseThrow(); // creates app_permits
            assertThatThrownBy(() -> LockStore.open(db + "?distlock.table=APP_PERMITS").close())
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("APP_PERMITS");
            assertThat(permit.isValid()).isTrue();
            permit.release();
        }
    }

    @Test
    void anExistingLockTableOfSuchANameStillOpens() throws Exception {
        try (Connection c = DriverManager.getConnection(db); Statement st = c.createStatement()) {
            for (String sql : SchemaInstaller.statements("schema-h2.sql", "old_permits")) {
                st.execute(sql);
            }
        }
        try (LockStore old = LockStore.open(db + "?distlock.table=old_permits")) {
            old.lock("a").tryAcquire().orElseThrow().release();
        }
    }
}
