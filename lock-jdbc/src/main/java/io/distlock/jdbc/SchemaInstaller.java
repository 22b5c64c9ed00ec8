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
import java.util.Locale;

/**
 * Makes sure one of the store's tables exists: probes it, and when it is missing either creates it from the
 * dialect's shipped DDL ({@code io/distlock/jdbc/schema-<dialect>.sql} for the lock table,
 * {@code permits-<dialect>.sql} for the permit table) or, if creation is not allowed, fails with a message saying
 * which file to run. Creating only when missing means an application user without DDL privileges can open a store on
 * a table an administrator created. One store of this JVM at a time probes and creates a table ({@link SchemaChanges}).
 */
final class SchemaInstaller {

    private final SqlDialect dialect;
    private final String table;
    private final String probeSql;
    /** The DDL files' prefix: {@code schema-} or {@code permits-}. */
    private final String ddl;
    private final String store;
    private final long boundMillis;

    private SchemaInstaller(SqlDialect dialect, String table, String probeSql, String ddl, String redactedUri,
            long boundMillis) {
        this.dialect = dialect;
        this.table = table;
        this.probeSql = probeSql;
        this.ddl = ddl;
        this.store = redactedUri;
        this.boundMillis = boundMillis;
    }

    /**
     * The installer of the store's lock table. {@code boundMillis}: how long to wait for another store of this JVM
     * creating the table ({@link SchemaChanges}), and for the database's locks on it.
     */
    static SchemaInstaller lockTable(SqlDialect dialect, String redactedUri, long boundMillis) {
        return new SchemaInstaller(dialect, dialect.table, dialect.probeSql(), "schema-", redactedUri, boundMillis);
    }

    /** The installer of the store's permit table ({@code <lock table>_permits}). */
    static SchemaInstaller permitTable(SqlDialect dialect, String redactedUri, long boundMillis) {
        String table = dialect.table + JdbcPermits.TABLE_SUFFIX;
        return new SchemaInstaller(dialect, table, permitProbe(table), "permits-", redactedUri, boundMillis);
    }

    /** A query that fails with a missing-table error unless {@code table} is a permit table. */
    private static String permitProbe(String table) {
        return "SELECT name, slot, owner_token, fence, expires_at, owner, permits FROM " + table + " WHERE 1 = 0";
    }

    /**
     * Probes the lock table on {@code c} and creates it if missing and {@code create} is true; refuses a lock table
     * named like another store's permit table.
     */
    void ensureLockTable(Connection c, boolean create) throws SQLException {
        alone(c, bounded -> {
            if (isDerivedName()) {
                refuseUnlessLockTable(bounded);
            } else {
                createIfMissing(bounded, create);
            }
            return null;
        });
    }

    /** Probes the table on {@code c} and creates it if missing; returns nothing (null), as SQL work. */
    Void ensureTable(Connection c) throws SQLException {
        alone(c, bounded -> {
            createIfMissing(bounded, true);
            return null;
        });
        return null;
    }

    /** Runs {@code change} alone among this JVM's stores, the database's lock waits bounded as the client's. */
    private void alone(Connection c, JdbcBackend.SqlWork<Void> change) throws SQLException {
        SchemaChanges.alone(c, table, store, boundMillis,
                turn -> dialect.boundingLockWaits(turn, boundMillis, change));
    }

    private void createIfMissing(Connection c, boolean create) throws SQLException {
        if (exists(c)) {
            return;
        }
        String resource = dialect.schemaResource(c).replace("schema-", ddl);
        if (!create) {
            throw new IllegalStateException("lock table '" + table + "' does not exist in store " + store
                    + "; create it with io/distlock/jdbc/" + resource + " from the lock-jdbc jar (replace ${table})"
                    + " or allow " + JdbcSettings.CREATE_TABLE + "=true");
        }
        try (Statement st = c.createStatement()) {
            for (String sql : statements(resource, table)) {
                st.execute(sql);
            }
        } catch (SQLException e) {
            // another process's create at the same moment (PostgreSQL: "type ... already exists", 42710) may have
            // won: fail only if the table is still missing
            if (!exists(c)) {
                throw e;
            }
        }
    }

    /** Whether the lock table's name is one a store derives from its own lock table (another store's permit table). */
    private boolean isDerivedName() {
        return table.toLowerCase(Locale.ROOT).endsWith(JdbcPermits.TABLE_SUFFIX);
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
            st.executeQuery(permitProbe(table)).close();
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    /** Whether the table exists, with its columns; false if the database says it is missing. */
    private boolean exists(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.executeQuery(probeSql).close();
            return true;
        } catch (SQLException e) {
            if (dialect.isMissingTable(e)) {
                return false;
            }
            throw e;
        }
    }

    /** The statements of a DDL resource with {@code ${table}} replaced by {@code table} and comments removed. */
    static List<String> statements(String resource, String table) {
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
