package io.distlock.jdbc;

import io.distlock.StaleFenceException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The resource side of fencing for data kept in a SQL database: inside the caller's own transaction,
 * {@link #advance} records the lease's fencing token for a resource, or refuses it with {@link StaleFenceException}
 * when a higher token has already written there. A paused holder whose lease ran out can then no longer commit over
 * the newer holder's work. It is plain JDBC on the caller's {@link Connection} and works whatever store issued the
 * token (a Redis lock protecting a PostgreSQL table is the common case), on MySQL and MariaDB (Connector/J or the
 * MariaDB client), PostgreSQL and H2, picked from the connection's metadata.
 *
 * <pre>{@code
 * try (Lease lease = lock.acquire(); Connection c = dataSource.getConnection()) {
 *     c.setAutoCommit(false);
 *     fence.advance(c, "orders:42", lease.fencingToken());   // first statement of the transaction
 *     ... read and write the order ...
 *     c.commit();
 * }
 * }</pre>
 *
 * <p><b>The rule that makes it correct: call {@code advance} first in the transaction, before reading the data it
 * protects.</b> The fence row then stays locked by the caller's transaction until it commits or rolls back, so the
 * holders' transactions on one resource are serialised in token order: a newer holder waits for an older one's
 * commit and then reads what it wrote; an older holder that comes after a newer one's commit is refused. How the
 * isolation levels behave when the rule is kept:
 * <ul>
 * <li>READ COMMITTED (PostgreSQL's and H2's default): every later statement sees the data committed before the
 * fence row was granted.</li>
 * <li>MySQL/MariaDB REPEATABLE READ (InnoDB's default): the upsert is a locking statement and does not take the
 * transaction's read snapshot; InnoDB takes it at the first plain {@code SELECT}, which comes after {@code advance},
 * so it includes every earlier holder's commit. Do not start the transaction with
 * {@code START TRANSACTION WITH CONSISTENT SNAPSHOT}, and do not read before {@code advance}: such a snapshot may
 * predate the previous holder's commit and InnoDB would let a write computed from it overwrite that commit silently
 * (MariaDB with {@code innodb_snapshot_isolation=ON} reports it as error 1020 instead).</li>
 * <li>PostgreSQL REPEATABLE READ and SERIALIZABLE (snapshot isolation): the snapshot is taken when the
 * transaction's first statement starts. If a holder's {@code advance} has to wait for another holder's transaction
 * that then commits, or the fence row was changed after the snapshot was taken (also when the data was read before
 * {@code advance}), PostgreSQL raises a serialization failure (SQLState 40001) rather than let a stale read through.
 * Roll back and retry the transaction: a newer holder then succeeds, a stale one gets
 * {@link StaleFenceException}.</li>
 * </ul>
 * A serialization failure or a deadlock (MySQL error 1213) is an ordinary retryable {@link SQLException}; a stale
 * write is never silently accepted.
 *
 * <p>Equal tokens are accepted (a holder may write several times under one lease). The table holds one row per
 * resource ({@code resource VARCHAR(255)} primary key, {@code fence BIGINT}); the DDL ships beside the lock table's
 * as {@code io/distlock/jdbc/fences-<mysql|mariadb|postgresql|h2>.sql}. Rows are never deleted: an operator who
 * deletes one lets a stale holder write once more. Instances are immutable and thread-safe.
 */
public final class SqlFence {

    /** The table of {@link #defaults()}. */
    public static final String DEFAULT_TABLE = "distlock_fences";

    /** The longest resource name the table holds. */
    public static final int MAX_RESOURCE_LENGTH = 255;

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");

    private final String table;

    private SqlFence(String table) {
        this.table = table;
    }

    /** Fences kept in the table {@value #DEFAULT_TABLE}. */
    public static SqlFence defaults() {
        return new SqlFence(DEFAULT_TABLE);
    }

    /**
     * Fences kept in {@code table}: a plain name or {@code schema.name}, letters, digits and {@code _} only (it is
     * written into the SQL, so nothing else is accepted).
     *
     * @throws IllegalArgumentException if the name is not such an identifier
     */
    public static SqlFence table(String table) {
        Objects.requireNonNull(table, "fence table name must not be null");
        String[] parts = table.split("\\.", -1);
        boolean ok = parts.length <= 2;
        for (String part : parts) {
            ok &= IDENTIFIER.matcher(part).matches();
        }
        if (!ok) {
            throw new IllegalArgumentException("fence table '" + table + "' is not a plain table name: use letters,"
                    + " digits and '_' (at most 63, not starting with a digit), optionally schema.table");
        }
        return new SqlFence(table);
    }

    /** The table this fence writes to. */
    public String tableName() {
        return table;
    }

    /**
     * Creates the fence table from the shipped DDL unless it exists ({@code CREATE TABLE IF NOT EXISTS}). Needs the
     * {@code CREATE} privilege; without it, have the table created from the shipped file instead. Call it once at
     * start-up, outside the transactions that use the fence: MySQL and MariaDB commit any open transaction on DDL,
     * and on PostgreSQL and H2 the creation belongs to an open transaction until it commits.
     */
    public void createTableIfMissing(Connection c) throws SQLException {
        Objects.requireNonNull(c, "connection must not be null");
        try (Statement st = c.createStatement()) {
            for (String sql : FenceDialect.of(c).ddl(table)) {
                st.execute(sql);
            }
        }
    }

    /**
     * Records {@code fencingToken} as the highest token of {@code resource} if it is greater than or equal to the one
     * recorded, in the connection's open transaction, and keeps the fence row locked until that transaction ends.
     * Call it first in the transaction (see the class comment). On MySQL and MariaDB it sends two statements under
     * the same row lock (the upsert, then a locking read of the result); on PostgreSQL and H2 one.
     *
     * @throws StaleFenceException if a higher token is already recorded for {@code resource}: a newer holder has
     *         written; roll back
     * @throws IllegalStateException if the connection is in autocommit mode: the fence would be committed and unlocked
     *         before the protected write
     * @throws IllegalArgumentException if {@code resource} is empty or longer than {@value #MAX_RESOURCE_LENGTH}
     *         characters, or {@code fencingToken} is below 1
     * @throws SQLException from the database, for example a serialization failure under snapshot isolation, a
     *         deadlock or a lock-wait timeout (retry the transaction), or a missing table
     */
    public void advance(Connection c, String resource, long fencingToken) throws SQLException {
        Objects.requireNonNull(c, "connection must not be null");
        requireResource(resource);
        if (fencingToken < 1) {
            throw new IllegalArgumentException("fencing token must be at least 1, got " + fencingToken);
        }
        if (c.getAutoCommit()) {
            throw new IllegalStateException("SqlFence.advance needs an open transaction: call setAutoCommit(false) on"
                    + " the connection first; in autocommit the fence row is unlocked before the protected write");
        }
        long recorded = FenceDialect.of(c).advance(c, table, resource, fencingToken);
        if (recorded > fencingToken) {
            throw new StaleFenceException(resource, fencingToken, recorded);
        }
    }

    private static void requireResource(String resource) {
        Objects.requireNonNull(resource, "resource must not be null");
        if (resource.isEmpty()) {
            throw new IllegalArgumentException("resource must not be empty");
        }
        if (resource.length() > MAX_RESOURCE_LENGTH) {
            throw new IllegalArgumentException("resource is " + resource.length()
                    + " characters long; the fence table holds at most " + MAX_RESOURCE_LENGTH);
        }
    }

    @Override
    public String toString() {
        return "SqlFence[" + table + "]";
    }
}
