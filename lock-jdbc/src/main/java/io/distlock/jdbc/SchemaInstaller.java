package io.distlock.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * Makes sure the lock table exists when a store opens: probes it, and when it is missing either creates it from
 * the dialect's shipped DDL ({@code io/distlock/jdbc/schema-<dialect>.sql}) or, if creation is not allowed, fails
 * with a message saying which file to run. Creating only when missing means an application user without DDL
 * privileges can open a store on a table an administrator created.
 */
final class SchemaInstaller {

    private final DataSource dataSource;
    private final SqlDialect dialect;
    private final String table;
    private final String store;
    private final long boundMillis;

    /** {@code boundMillis}: how long to wait for another store of this JVM creating the table (SchemaChanges). */
    SchemaInstaller(DataSource dataSource, SqlDialect dialect, String table, String redactedUri, long boundMillis) {
        this.dataSource = dataSource;
        this.dialect = dialect;
        this.table = table;
        this.store = redactedUri;
        this.boundMillis = boundMillis;
    }

    /** Probes the table and creates it if missing and {@code create} is true, one store of this JVM at a time. */
    void ensureTable(boolean create) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            SchemaChanges.alone(c, table, boundMillis,
                    alone -> dialect.boundingLockWaits(alone, boundMillis, bounded -> ensure(bounded, create)));
        }
    }

    private Void ensure(Connection c, boolean create) throws SQLException {
        if (isDerivedName()) {
            refuseUnlessLockTable(c);
            return null;
        }
        if (exists(c)) {
            return null;
        }
        String resource = dialect.schemaResource(c);
        if (!create) {
            throw new IllegalStateException("lock table '" + table + "' does not exist in store " + store
                    + "; create it with io/distlock/jdbc/" + resource + " from the lock-jdbc jar (replace ${table})"
                    + " or allow " + JdbcSettings.CREATE_TABLE + "=true");
        }
        try (Statement st = c.createStatement()) {
            for (String sql : statements(resource)) {
                st.execute(sql);
            }
        } catch (SQLException e) {
            if (!exists(c)) { // another process's create may have won; only fail if the table is still missing
                throw e;
            }
        }
        return null;
    }

    /** Whether the lock table's name is one a store derives from its own lock table (another store's permit table). */
    private boolean isDerivedName() {
        return table.toLowerCase(java.util.Locale.ROOT).endsWith(JdbcPermits.TABLE_SUFFIX);
    }

    /**
     * A lock table named like another store's permit table ({@code <table>_permits}) would share that table with the
     * store of {@code <table>}: refused, unless the database already holds a lock table of that name (made by a
     * version that allowed it; it is kept working, and the store of {@code <table>} cannot use semaphores then).
     */
    private void refuseUnlessLockTable(Connection c) throws SQLException {
        try {
            if (exists(c)) {
                return;
            }
        } catch (SQLException notALockTable) {
            if (!hasPermitColumns(c)) { // not another store's permit table: an outage or a privilege, reported as such
                throw notALockTable;
            }
        }
        throw new IllegalArgumentException(JdbcSettings.TABLE + " '" + table + "' in " + store + " ends in '"
                + JdbcPermits.TABLE_SUFFIX + "', the name the store of '"
                + table.substring(0, table.length() - JdbcPermits.TABLE_SUFFIX.length())
                + "' gives its permit table, and is no existing lock table: choose a name that does not end in '"
                + JdbcPermits.TABLE_SUFFIX + "'");
    }

    private boolean hasPermitColumns(Connection c) {
        try (Statement st = c.createStatement()) {
            st.executeQuery("SELECT name, slot, owner_token, fence, expires_at, owner, permits FROM " + table
                    + " WHERE 1 = 0").close();
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    private boolean exists(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.executeQuery(dialect.probeSql()).close();
            return true;
        } catch (SQLException e) {
            if (dialect.isMissingTable(e)) {
                return false;
            }
            throw e;
        }
    }

    /** The statements of a DDL resource with {@code ${table}} replaced and comments removed. */
    List<String> statements(String resource) {
        String text = read(resource);
        StringBuilder sql = new StringBuilder();
        for (String line : text.split("\n")) {
            if (!line.strip().startsWith("--")) {
                sql.append(line).append('\n');
            }
        }
        List<String> statements = new ArrayList<>();
        for (String s : sql.toString().replace("${table}", table).split(";")) {
            if (!s.isBlank()) {
                statements.add(s.strip());
            }
        }
        return statements;
    }

    private static String read(String resource) {
        try (InputStream in = SchemaInstaller.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("DDL resource io/distlock/jdbc/" + resource + " is missing");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
