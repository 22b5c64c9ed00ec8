package io.distlock.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The SQL one database needs for the lock table: the atomic acquire, the owner-token-conditioned release and
 * renewal, the admin queries, and the driver settings that make them behave. Every time comparison uses the
 * database's clock expression ({@link #now()}), never a time sent by the client, so a client with a wrong clock
 * cannot take a live lock. One subclass per database; an instance is bound to one table.
 */
abstract class SqlDialect {

    /**
     * Renewals and admin lookups are sent in chunks of at most this many names: 1,000 keeps renewal under one round
     * trip per 100 leases where a chunk costs two statements (MySQL/MariaDB, H2), within every driver's limits.
     */
    static final int CHUNK = 1000;

    protected final String table;

    SqlDialect(String table) {
        this.table = table;
    }

    /** A short name for messages and pool names: {@code mysql}, {@code mariadb}, {@code postgresql}, {@code h2}. */
    abstract String name();

    /** The driver class, named explicitly so that no other driver on the class path answers the URL. */
    abstract String driverClass();

    /**
     * Driver properties this store needs or recommends; each is added only when the URL does not set it. Throws
     * IllegalArgumentException if the URL sets a property to a value the store cannot work with.
     */
    abstract Map<String, String> driverProperties(JdbcSettings settings);

    /**
     * What is wrong with how {@code c} behaves for this store, checked by its effect (a setting that reached the
     * driver in a form no text check sees), or null if nothing; runs on every new connection, after the lock table
     * exists, and must leave nothing behind.
     */
    String sessionProblem(Connection c) throws SQLException {
        return null;
    }

    /** SQL run on every new pooled connection, or null. */
    String connectionInitSql() {
        return null;
    }

    /** The DDL resource for the database behind {@code connection}, under {@code io/distlock/jdbc/}. */
    abstract String schemaResource(Connection connection) throws SQLException;

    /** The database's current time, as an SQL expression. */
    abstract String now();

    /** The database's current time plus a bound parameter of microseconds, as an SQL expression. */
    abstract String nowPlusMicros();

    /** Microseconds from the database's current time until {@code expires_at}, as an SQL expression. */
    abstract String microsLeft();

    /**
     * The database's clock in microseconds since the epoch, as an SQL expression: the fence of a newly inserted row,
     * and the floor of every new fence, which is {@code GREATEST(fence + 1, <this clock>)} on every acquire (locks
     * and semaphores), as Redis does with its server time.
     *
     * <p>Why: a token is then never below the clock at its grant, and never more than about one above it, since one
     * name is not granted a million times a second (each grant is a committed write). So every token granted before
     * a moment is below the clock a microsecond or so after it. When the table forgets (an operator deletes the row,
     * a crash loses acknowledged commits under a write delay or asynchronous commit, a restore from backup, a
     * replica promotion), the row comes back older or not at all, and the next grant, later by the clock than every
     * grant before, still gets a greater token, where {@code fence + 1} alone would repeat tokens the resource has
     * already seen.
     *
     * <p>The limit: this trusts the database clock not to go back. If it steps back by some amount (an NTP step, a
     * failover to a host whose clock is behind), tokens still grow by one from the row as long as the row is
     * intact; but if the row is also rolled back or deleted, tokens granted within that amount before the loss can
     * be issued again.
     */
    abstract String fenceSeed();

    /**
     * One atomic attempt to take {@code name}: inserts the row if absent, takes it over if free or expired by the
     * database clock, and leaves it alone otherwise.
     *
     * @return the new fencing token, or 0 if the lock is held by someone else
     */
    abstract long acquire(Connection c, String name, String token, String owner, long leaseMicros)
            throws SQLException;

    /**
     * Runs an acquire statement that returns the new fence as a row when it took the lock and no row otherwise
     * (PostgreSQL {@code RETURNING}, H2 {@code FINAL TABLE}); parameters are name, token, lease, owner.
     */
    static long fenceFromQuery(Connection c, String sql, String name, String token, String owner, long leaseMicros)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, name);
            ps.setString(2, token);
            ps.setLong(3, leaseMicros);
            ps.setString(4, owner);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    /**
     * One atomic hand-over of {@code name} from {@code fromToken} to {@code toToken} (a thread of the same client):
     * if {@code fromToken} still holds the row by the database clock, it gets the new token, owner, lease and the
     * fence {@code GREATEST(fence + 1, <clock>)} of {@link #acquire}; the row is never free in between.
     *
     * @return the new fencing token, or 0 if {@code fromToken} no longer held the lock (nothing changed)
     */
    abstract long handOver(Connection c, String name, String fromToken, String toToken, String owner,
            long leaseMicros) throws SQLException;

    /**
     * The hand-over {@code UPDATE} with {@code fence} as the new fence's expression; parameters: new token, lease
     * micros, owner, name, old token.
     */
    final String handOverUpdate(String fence) {
        return "UPDATE " + table + " SET owner_token = ?, fence = " + fence + ", expires_at = " + nowPlusMicros()
                + ", owner = ?, acquired_at = " + now() + " WHERE name = ? AND owner_token = ? AND expires_at > "
                + now();
    }

    /** Binds the parameters of {@link #handOverUpdate} in their order. */
    static void bindHandOver(PreparedStatement ps, String name, String fromToken, String toToken, String owner,
            long leaseMicros) throws SQLException {
        ps.setString(1, toToken);
        ps.setLong(2, leaseMicros);
        ps.setString(3, owner);
        ps.setString(4, name);
        ps.setString(5, fromToken);
    }

    /** Runs a hand-over statement that returns the new fence as a row when it took place and no row otherwise. */
    static long fenceFromHandOverQuery(Connection c, String sql, String name, String fromToken, String toToken,
            String owner, long leaseMicros) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bindHandOver(ps, name, fromToken, toToken, owner, leaseMicros);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    /** Whether {@code e} only says another transaction got in the way (deadlock, lock wait, duplicate insert). */
    abstract boolean isContention(SQLException e);

    /** Whether {@code e} says the lock table does not exist. */
    abstract boolean isMissingTable(SQLException e);

    /**
     * Refuses a name this database cannot store in a text column, with an {@link IllegalArgumentException} saying
     * why, before any statement: otherwise every acquire of it would fail with a store error. None by default.
     */
    final void requireStorable(String name) {
        requireStorable(name, "name");
    }

    /** As {@link #requireStorable(String)} for {@code text}, called {@code what} in the message (a name, a prefix). */
    void requireStorable(String text, String what) {
    }

    /** The condition "this row is held now" on the lock table. */
    final String held() {
        return "owner_token IS NOT NULL AND expires_at > " + now();
    }

    /** Frees the row if {@code owner_token} (2nd parameter) still holds {@code name} (1st parameter). */
    String releaseSql() {
        return "UPDATE " + table + " SET owner_token = NULL, expires_at = NULL, owner = NULL"
                + " WHERE name = ? AND owner_token = ? AND expires_at > " + now();
    }

    /** Frees the row of {@code name} whoever holds it. */
    String forceReleaseSql() {
        return "UPDATE " + table + " SET owner_token = NULL, expires_at = NULL, owner = NULL WHERE name = ? AND "
                + held();
    }

    /** Frees the row of {@code name} (1st parameter) only if it is held under the fence (2nd parameter). */
    String forceReleaseIfSql() {
        return forceReleaseSql() + " AND fence = ?";
    }

    /** Held rows whose name starts with a LIKE pattern (escape '!'), sorted, limited. */
    String listSql() {
        return "SELECT name, fence, " + microsLeft() + " AS micros_left, owner FROM " + table
                + " WHERE name LIKE ? ESCAPE '!' AND " + held() + " ORDER BY name LIMIT ?";
    }

    /**
     * Runs {@code change} (a table's probe and creation) on {@code c} so that the database itself gives up waiting
     * for another session's lock on the table after about {@code millis}, as the client does at its socket timeout: a
     * server that would wait on after the client left keeps a session for each store that tried. Nothing by default
     * (MariaDB notices the client's departure during such a wait; H2 is in the client's hands).
     */
    <T> T boundingLockWaits(Connection c, long millis, JdbcBackend.SqlWork<T> change) throws SQLException {
        return change.run(c);
    }

    /** A query that fails with a missing-table error if the lock table does not exist. */
    String probeSql() {
        return "SELECT name, owner_token, fence, expires_at, owner, acquired_at FROM " + table + " WHERE 1 = 0";
    }

    /**
     * Renews every grant in {@code tokensByName} (name to owner token) that still holds its lock, by
     * {@code leaseMicros} from the database's now. Each statement gives up after {@code timeoutSeconds} (a
     * {@link java.sql.SQLTimeoutException} or the database's cancel error, see {@link SqlFailures#isTimeout}).
     *
     * @return the names renewed
     */
    Set<String> renew(Connection c, Map<String, String> tokensByName, long leaseMicros, int timeoutSeconds)
            throws SQLException {
        List<String> names = new ArrayList<>(tokensByName.keySet());
        String in = String.join(", ", Collections.nCopies(names.size(), "?"));
        String where = " WHERE name IN (" + in + ") AND owner_token IN (" + in + ") AND expires_at > " + now();
        try (PreparedStatement update = prepareBounded(c,
                "UPDATE " + table + " SET expires_at = " + nowPlusMicros() + where, timeoutSeconds)) {
            int i = 1;
            update.setLong(i++, leaseMicros);
            i = bindNamesAndTokens(update, i, names, tokensByName);
            update.executeUpdate();
        }
        // Tokens are unique random values, so a row matching any of our names and any of our tokens is one of our
        // pairs. A row still held by its token after the update was renewed by it: had it been expired at the
        // update, it would be expired (or someone else's) now as well.
        Set<String> renewed = new HashSet<>();
        try (PreparedStatement select = prepareBounded(c, "SELECT name, owner_token FROM " + table + where,
                timeoutSeconds)) {
            bindNamesAndTokens(select, 1, names, tokensByName);
            select.execute(); // not executeQuery: Connector/J refuses it for a query prefixed by SET STATEMENT
            try (ResultSet rs = select.getResultSet()) {
                while (rs.next()) {
                    if (rs.getString(2).equals(tokensByName.get(rs.getString(1)))) {
                        renewed.add(rs.getString(1));
                    }
                }
            }
        }
        return renewed;
    }

    /**
     * {@code sql} prepared to give up after {@code timeoutSeconds}: by the driver's query timeout here; a dialect
     * whose driver cancels out of band (over a new connection, which a server that stopped answering also leaves
     * unanswered) bounds it on the server instead.
     */
    PreparedStatement prepareBounded(Connection c, String sql, int timeoutSeconds) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        ps.setQueryTimeout(timeoutSeconds);
        return ps;
    }

    private static int bindNamesAndTokens(PreparedStatement ps, int start, List<String> names,
            Map<String, String> tokensByName) throws SQLException {
        int i = start;
        for (String name : names) {
            ps.setString(i++, name);
        }
        for (String name : names) {
            ps.setString(i++, tokensByName.get(name));
        }
        return i;
    }

    /** The SQLState of {@code e} or of the first cause that has one, else "". */
    static String sqlState(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s && s.getSQLState() != null) {
                return s.getSQLState();
            }
        }
        return "";
    }
}
