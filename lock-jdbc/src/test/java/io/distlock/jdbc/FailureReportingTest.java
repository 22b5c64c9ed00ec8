package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.LockException;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import io.distlock.tck.fixture.FreePorts;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * How opening a store reports trouble: an unreachable database is {@link StoreUnavailableException}, refused
 * credentials are a plain {@link LockException} (not an outage), a missing table without permission to create it
 * names the DDL file to run, and no message or cause carries the password.
 */
@ExtendWith(Databases.class)
class FailureReportingTest {

    private static final String SECRET = "s3cret-pw-42";

    @Test
    void anUnreachableDatabaseIsUnavailableAndThePasswordStaysHidden() {
        String uri = "jdbc:mysql://127.0.0.1:" + FreePorts.next() + "/test?user=root&password=" + SECRET;
        assertThatThrownBy(() -> LockStore.open(uri))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("password=***")
                .satisfies(e -> assertThat(chain(e)).doesNotContain(SECRET));
    }

    @Test
    void refusedCredentialsAreNotReportedAsAnOutage() {
        String uri = Databases.postgres().replace("user=postgres", "user=distlock_no_such_role") + "&password="
                + SECRET;
        assertThatThrownBy(() -> LockStore.open(uri))
                .isInstanceOf(LockException.class)
                .isNotInstanceOf(StoreUnavailableException.class)
                .satisfies(e -> assertThat(chain(e)).doesNotContain(SECRET));
    }

    @Test
    void aMissingTableThatMayNotBeCreatedNamesTheDdlFile() {
        String table = Databases.uniqueTable("absent");
        String uri = Databases.withOptions(Databases.postgres(), "distlock.table=" + table
                + "&distlock.createTable=false");
        assertThatThrownBy(() -> LockStore.open(uri))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(table)
                .hasMessageContaining("schema-postgresql.sql")
                .hasMessageContaining("distlock.createTable=true");
    }

    @Test
    void aTableCreatedByAnAdministratorFromTheShippedDdlIsUsedWithoutDdlRights() throws Exception {
        String table = Databases.uniqueTable("admin");
        SchemaInstaller ddl = new SchemaInstaller(null, null, table, "test");
        try (Connection c = DriverManager.getConnection(Databases.mysql()); Statement st = c.createStatement()) {
            for (String sql : ddl.statements("schema-mariadb.sql")) {
                st.execute(sql);
            }
        }
        String uri = Databases.withOptions(Databases.mysql(), "distlock.table=" + table
                + "&distlock.createTable=false");
        try (LockStore store = LockStore.open(uri)) {
            store.lock("ddl:check").tryAcquire().orElseThrow().release();
        }
    }

    private static String chain(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append(t).append('\n');
            for (Throwable s : t.getSuppressed()) {
                all.append(s).append('\n');
            }
        }
        return all.toString();
    }
}
