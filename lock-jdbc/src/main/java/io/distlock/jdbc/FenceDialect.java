package io.distlock.jdbc;

import io.distlock.Arguments;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;

/**
 * The SQL {@link SqlFence} sends to each database: a conditional upsert of the fence row that leaves the row locked
 * by the caller's transaction and tells the highest token now recorded ({@code GREATEST(recorded, offered)}), so the
 * caller learns "refused" and the token that refused it under the same row lock, and the DDL of the fence table.
 * Chosen from the connection's metadata.
 */
enum FenceDialect {

    /**
     * MySQL (through Connector/J or the MariaDB client). {@code INSERT ... ON DUPLICATE KEY UPDATE} takes an
     * exclusive lock on the row (waiting for a transaction that holds it), then a locking read of the same row, which
     * cannot wait (the row is already ours) and sees the latest committed value, not the transaction's snapshot. No
     * affected-row count is used, so the driver's {@code useAffectedRows} setting does not matter.
     */
    MYSQL("fences-mysql.sql") {
        @Override
        long advance(Connection c, String table, String resource, long token) throws SQLException {
            return upsertThenLockingRead(c, table, resource, token);
        }
    },

    /** MariaDB, through either driver: the same statements as MySQL, its own collation in the DDL. */
    MARIADB("fences-mariadb.sql") {
        @Override
        long advance(Connection c, String table, String resource, long token) throws SQLException {
            return upsertThenLockingRead(c, table, resource, token);
        }
    },

    /**
     * PostgreSQL: one {@code INSERT ... ON CONFLICT DO UPDATE SET fence = GREATEST(...) RETURNING fence}. It waits for
     * a transaction holding the row; under REPEATABLE READ or SERIALIZABLE a row changed by a transaction that
     * committed after the caller's snapshot makes it fail with a serialization error (SQLState 40001) instead.
     */
    POSTGRESQL("fences-postgresql.sql") {
        @Override
        long advance(Connection c, String table, String resource, long token) throws SQLException {
            return queryFence(c, table, "INSERT INTO " + table + " AS f (resource, fence) VALUES (?, ?)"
                    + " ON CONFLICT (resource) DO UPDATE SET fence = GREATEST(f.fence, EXCLUDED.fence)"
                    + " RETURNING f.fence", resource, token);
        }
    },

    /**
     * H2: one {@code SELECT fence FROM FINAL TABLE (MERGE ...)}. It waits for a transaction holding the row, also for
     * one that inserted the resource's first row and has not committed yet, and then updates that row.
     */
    H2("fences-h2.sql") {
        @Override
        long advance(Connection c, String table, String resource, long token) throws SQLException {
            String merge = "SELECT fence FROM FINAL TABLE (MERGE INTO " + table + " AS f"
                    + " USING (VALUES (CAST(? AS VARCHAR(255)), CAST(? AS BIGINT))) AS s(resource, fence)"
                    + " ON f.resource = s.resource"
                    + " WHEN MATCHED THEN UPDATE SET fence = GREATEST(f.fence, s.fence)"
                    + " WHEN NOT MATCHED THEN INSERT (resource, fence) VALUES (s.resource, s.fence))";
            try {
                return queryFence(c, table, merge, resource, token);
            } catch (SQLException e) {
                if (!H2_DUPLICATE_KEY.equals(e.getSQLState())) {
                    throw e;
                }
                // H2 can decide "not matched" before it waits for another transaction's uncommitted first row, then
                // fail its insert once that row commits; the row exists now, so the same MERGE updates it. A failed
                // statement does not end an H2 transaction, so the caller's transaction goes on.
                return queryFence(c, table, merge, resource, token);
            }
        }
    };

    /** H2's SQLState for a unique index violation. */
    private static final String H2_DUPLICATE_KEY = "23505";

    private final String schemaResource;

    FenceDialect(String schemaResource) {
        this.schemaResource = schemaResource;
    }

    /**
     * Records {@code token} for {@code resource} if it is not lower than the recorded one, leaving the row locked by
     * the connection's transaction.
     *
     * @return the highest token now recorded: {@code token} if accepted, the higher recorded one if refused
     */
    abstract long advance(Connection c, String table, String resource, long token) throws SQLException;

    /** The DDL resource under {@code io/distlock/jdbc/}. */
    String schemaResource() {
        return schemaResource;
    }

    /** The DDL statements with {@code ${table}} replaced and comments removed. */
    List<String> ddl(String table) {
        return SchemaInstaller.statements(schemaResource, table);
    }

    /** The dialect of the database behind {@code c}, from its metadata. */
    static FenceDialect of(Connection c) throws SQLException {
        DatabaseMetaData md = c.getMetaData();
        String product = String.valueOf(md.getDatabaseProductName()).toLowerCase(Locale.ROOT);
        String version = String.valueOf(md.getDatabaseProductVersion()).toLowerCase(Locale.ROOT);
        if (product.contains("mariadb") || (product.contains("mysql") && version.contains("mariadb"))) {
            return MARIADB;
        }
        if (product.contains("mysql")) {
            return MYSQL;
        }
        if (product.contains("postgresql")) {
            return POSTGRESQL;
        }
        if (product.equals("h2")) {
            return H2;
        }
        throw new IllegalArgumentException("SqlFence supports MySQL, MariaDB, PostgreSQL and H2; this connection is to "
                + md.getDatabaseProductName() + " " + md.getDatabaseProductVersion());
    }

    private static long upsertThenLockingRead(Connection c, String table, String resource, long token)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (resource, fence) VALUES (?, ?)"
                + " ON DUPLICATE KEY UPDATE fence = GREATEST(fence, ?)")) {
            ps.setString(1, resource);
            ps.setLong(2, token);
            ps.setLong(3, token);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT fence FROM " + table + " WHERE resource = ? FOR UPDATE")) {
            ps.setString(1, resource);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("fence row of " + Arguments.quoted(resource) + " in " + table
                            + " is missing right after its upsert", "HY000");
                }
                return rs.getLong(1);
            }
        }
    }

    private static long queryFence(Connection c, String table, String sql, String resource, long token)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, resource);
            ps.setLong(2, token);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("the fence upsert on " + table + " returned no row", "HY000");
                }
                return rs.getLong(1);
            }
        }
    }
}
