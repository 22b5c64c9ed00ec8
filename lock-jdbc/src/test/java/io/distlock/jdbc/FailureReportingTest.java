package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import io.distlock.tck.fixture.FreePorts;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * How opening a store reports trouble: an unreachable database, and one that refuses the login, is
 * {@link StoreUnavailableException}, a missing table without permission to create it names the DDL file to run, and
 * no message or cause carries the password.
 */
@ExtendWith(Databases.class)
class FailureReportingTest {

    private static final String SECRET = "s3@cret-pw-42";

    @Test
    void anUnreachableDatabaseIsUnavailableAndThePasswordStaysHidden() {
        String uri = "jdbc:mysql://127.0.0.1:" + FreePorts.next() + "/test?user=root&password=" + SECRET;
        assertThatThrownBy(() -> LockStore.open(uri))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("password=***")
                .satisfies(e -> assertThat(chain(e)).doesNotContain(SECRET));
    }

    static Stream<Arguments> refusedLogins() {
        String quick = "&distlock.connectTimeoutMillis=1000";
        return Stream.of(
                Arguments.of("postgresql, a role that does not exist", Databases.postgres().replace("user=postgres",
                        "user=distlock_no_such_role") + "&password=" + SECRET + quick, "distlock_no_such_role"),
                Arguments.of("postgresql, a database that does not exist", Databases.postgres().replace("/test?",
                        "/distlock_no_such_db?") + "&password=" + SECRET + quick, "distlock_no_such_db"),
                Arguments.of("mariadb, a wrong password with @ in it",
                        Databases.mysql() + "&password=" + SECRET + quick, "user=root"),
                Arguments.of("mariadb, a database that does not exist", Databases.mysql().replace("/test?",
                        "/distlock_no_such_db?") + quick, "distlock_no_such_db"),
                Arguments.of("mariadb client, a wrong password with @ in it", Databases.mariadb() + "&password="
                        + SECRET + quick, "user=root"));
    }

    /**
     * A store that refuses the login (wrong password, missing role or database) cannot be used, as an unreachable one
     * cannot: {@link StoreUnavailableException}, with the host, port, database and user readable in the redacted URI
     * and never the password (which holds an {@code @} here).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedLogins")
    void aRefusedLoginIsUnavailableAndShowsWhereButNotThePassword(String label, String uri, String visible) {
        Matcher hostPort = Pattern.compile("//([^/?]+)/").matcher(uri);
        assertThat(hostPort.find()).isTrue();
        assertThatThrownBy(() -> LockStore.open(uri))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("//" + hostPort.group(1) + "/")
                .hasMessageContaining(visible)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"))
                .satisfies(e -> assertThat(chain(e)).doesNotContain(SECRET).doesNotContain("cret-pw"));
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
        try (Connection c = DriverManager.getConnection(Databases.mysql()); Statement st = c.createStatement()) {
            for (String sql : SchemaInstaller.statements("schema-mariadb.sql", table)) {
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
