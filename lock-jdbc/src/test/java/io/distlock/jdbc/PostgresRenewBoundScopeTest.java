package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The PostgreSQL renewal's statement timeout ({@code SET LOCAL} in its own round trip) bounds the renewal alone: the
 * next statement on the same connection runs with the connection's own timeout, also once pgjdbc prepares the
 * renewal on the server (after prepareThreshold uses) and in the simple query mode; and the renewal draws no server
 * warning (one in the server's log at every renewal).
 */
class PostgresRenewBoundScopeTest {

    @ParameterizedTest
    @ValueSource(strings = {"", "&prepareThreshold=1", "&preferQueryMode=simple",
            "&preferQueryMode=extendedCacheEverything"})
    void theRenewalBoundEndsWithTheRenewal(String option) throws SQLException {
        String table = "renew_scope_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        PostgresDialect dialect = new PostgresDialect(table);
        try (Connection c = DriverManager.getConnection(Databases.postgres() + option)) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE " + table + " (name VARCHAR PRIMARY KEY, owner_token VARCHAR,"
                        + " expires_at TIMESTAMPTZ)");
                s.execute("INSERT INTO " + table + " VALUES ('n', 't', clock_timestamp() + INTERVAL '1 hour')");
            }
            try {
                for (int i = 0; i < 8; i++) {
                    List<String> warnings = new ArrayList<>();
                    assertThat(dialect.renew(warningsRecorded(c, warnings), Map.of("n", "t"), 60_000_000L, 3))
                            .as("renewal %s", i)
                            .containsExactly("n");
                    assertThat(warnings).as("the server's warnings at renewal %s", i).isEmpty();
                    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW statement_timeout")) {
                        rs.next();
                        assertThat(rs.getString(1)).as("the next statement's timeout after renewal %s", i)
                                .isEqualTo("0");
                    }
                }
            } finally {
                try (Statement s = c.createStatement()) {
                    s.execute("DROP TABLE " + table);
                }
            }
        }
    }

    /** {@code c} whose prepared statements add their warnings to {@code warnings} when closed. */
    private static Connection warningsRecorded(Connection c, List<String> warnings) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    Object result = invoke(c, method, args);
                    if (!(result instanceof PreparedStatement ps)) {
                        return result;
                    }
                    return Proxy.newProxyInstance(PreparedStatement.class.getClassLoader(),
                            new Class<?>[] {PreparedStatement.class}, (p, m, a) -> {
                                if (m.getName().equals("close")) {
                                    for (SQLWarning w = ps.getWarnings(); w != null; w = w.getNextWarning()) {
                                        warnings.add(w.getMessage());
                                    }
                                }
                                return invoke(ps, m, a);
                            });
                });
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
