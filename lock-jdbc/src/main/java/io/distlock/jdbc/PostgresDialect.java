package io.distlock.jdbc;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * PostgreSQL. Acquire is one statement: an {@code UPDATE ... WHERE <free or expired> RETURNING fence} of an
 * existing row, else an {@code INSERT ... ON CONFLICT (name) DO NOTHING RETURNING fence} of a new one; no row back
 * means held, and an attempt on a held row locks and writes nothing. The new fence is the larger of the old one plus
 * one and the database clock in microseconds (see {@link SqlDialect#fenceSeed()}). Time is
 * {@code clock_timestamp()} (the real time, not the transaction start). Renewal is one
 * {@code UPDATE ... WHERE name = ANY(?) ... RETURNING} for any number of leases.
 */
final class PostgresDialect extends SqlDialect {

    /** The server's bound on an acquire or hand-over when the dialect is built without a socket timeout. */
    static final long DEFAULT_ATTEMPT_BOUND_MILLIS = 7500;

    private final String acquireSql;
    private final String renewSql;
    private final String handOverSql;
    private final String attemptBound;

    PostgresDialect(String table) {
        this(table, DEFAULT_ATTEMPT_BOUND_MILLIS);
    }

    /**
     * @param attemptBoundMillis how long the server lets an acquire or hand-over run, lock waits included: below the
     *     client's socket timeout ({@link #attemptBoundMillis(long)}), so the server gives up on a statement before the
     *     client does and never commits it after the client was told it failed
     */
    PostgresDialect(String table, long attemptBoundMillis) {
        super(table);
        this.attemptBound = "SELECT set_config('lock_timeout', '" + attemptBoundMillis + "', true),"
                + " set_config('statement_timeout', '" + attemptBoundMillis + "', true); ";
        // an UPDATE of a free or expired row, else an insert of a new one: an attempt on a held row matches no row
        // in either, so it locks nothing and writes nothing (no transaction id, no WAL flush at commit) and never
        // makes the holder's release wait; ON CONFLICT DO UPDATE would lock the held row until its commit
        String expiry = "clock_timestamp() + a.lease * INTERVAL '1 microsecond'";
        this.acquireSql = "WITH a AS (SELECT CAST(? AS VARCHAR) AS name, CAST(? AS VARCHAR) AS token,"
                + " CAST(? AS BIGINT) AS lease, CAST(? AS VARCHAR) AS owner),"
                + " up AS (UPDATE " + table + " AS l SET owner_token = a.token,"
                + " fence = GREATEST(l.fence + 1, " + fenceSeed() + "),"
                + " expires_at = " + expiry + ", owner = a.owner, acquired_at = clock_timestamp() FROM a"
                + " WHERE l.name = a.name"
                + " AND (l.owner_token IS NULL OR l.expires_at IS NULL OR l.expires_at <= clock_timestamp())"
                + " RETURNING l.fence),"
                + " ins AS (INSERT INTO " + table + " (name, owner_token, fence, expires_at, owner, acquired_at)"
                + " SELECT a.name, a.token, " + fenceSeed() + ", " + expiry + ", a.owner, clock_timestamp() FROM a"
                + " WHERE NOT EXISTS (SELECT 1 FROM up) ON CONFLICT (name) DO NOTHING RETURNING fence)"
                + " SELECT fence FROM up UNION ALL SELECT fence FROM ins";
        this.renewSql = "UPDATE " + table + " SET expires_at = " + nowPlusMicros()
                + " WHERE name = ANY(?) AND owner_token = ANY(?) AND expires_at > clock_timestamp()"
                + " RETURNING name, owner_token";
        this.handOverSql = handOverUpdate("GREATEST(fence + 1, " + fenceSeed() + ")") + " RETURNING fence";
    }

    @Override
    String name() {
        return "postgresql";
    }

    /**
     * The release ({@link #releaseSql()}: name, token) that also sends a notice (channel, payload: 3rd and 4th
     * parameters) in the same statement, only when it freed the row: one row back then, none when the row was not
     * the token's. The notice leaves at the release's commit, and with it: a statement that fails sends none. The
     * row it frees also turns {@code synchronous_commit} off for its transaction alone (read at the commit, reset
     * after it): in the statement, not one before it, since a driver in simple query mode sends each statement of a
     * string in a transaction of its own.
     */
    String releaseNotifyingSql() {
        return "WITH freed AS (" + releaseSql() + " RETURNING 1)"
                + " SELECT pg_notify(?, ?), set_config('synchronous_commit', 'off', true) FROM freed";
    }

    /**
     * {@link #releaseNotifyingSql()}, which commits without waiting for its WAL flush, so the waiter it tells is told
     * before the flush, not after it (a flush measured 1.8 ms per commit on the project's loaded host, a round trip
     * 0.5 ms). Safe: the waiter's acquire commits synchronously, and WAL is flushed in order, so an acquire
     * acknowledged is durable with the release before it; a crash before that flush loses the release alone, and the
     * row stays the old holder's, who let it go, until its lease ends: a wait, never two holders. Runs it on {@code
     * c}; whether it freed the row.
     */
    boolean releaseNotifying(Connection c, String name, String token, String channel, String payload)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(releaseNotifyingSql())) {
            ps.setString(1, name);
            ps.setString(2, token);
            ps.setString(3, channel);
            ps.setString(4, payload);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /**
     * Whether {@code e}, from {@link #releaseNotifying}, is the server refusing the notice, which rolls the release
     * back with it: {@code pg_notify} not granted to the role or missing (class 42), the cluster's NOTIFY queue full
     * (54000: a listener that reads nothing holds it back) or a payload too long (22023). Not a lost connection, a
     * cancel or a collision, which the plain release would meet as well.
     */
    static boolean isNoticeRefused(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith("42") || state.equals("54000") || state.equals("22023"));
    }

    @Override
    String driverClass() {
        return "org.postgresql.Driver";
    }

    @Override
    Map<String, String> driverProperties(JdbcSettings settings) {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("connectTimeout", Long.toString(Math.max(1, (settings.connectTimeoutMillis() + 999) / 1000)));
        props.put("socketTimeout", Long.toString((settings.socketTimeoutMillis() + 999) / 1000));
        props.put("tcpKeepAlive", "true");
        props.put("ApplicationName", "distlock");
        return props;
    }

    @Override
    String schemaResource(Connection connection) {
        return "schema-postgresql.sql";
    }

    @Override
    String now() {
        return "clock_timestamp()";
    }

    @Override
    String nowPlusMicros() {
        return "clock_timestamp() + CAST(? AS BIGINT) * INTERVAL '1 microsecond'";
    }

    @Override
    String microsLeft() {
        return "CAST(EXTRACT(EPOCH FROM (expires_at - clock_timestamp())) * 1000000 AS BIGINT)";
    }

    @Override
    String fenceSeed() {
        return "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000000 AS BIGINT)";
    }

    /**
     * Three quarters of the socket timeout: a statement that waits on a row another transaction keeps locked (an
     * operator's {@code SELECT ... FOR UPDATE}) is ended by the server first. Without it the client's socket timeout
     * gave up on the statement while the server kept it waiting; the cleanup of the abandoned token ran at once and
     * found nothing (the row did not carry that token yet, and under READ COMMITTED the cleanup does not wait), and
     * when the other transaction ended the statement took the row for a token nobody had, for its whole lease.
     */
    static long attemptBoundMillis(long socketTimeoutMillis) {
        return socketTimeoutMillis * 3 / 4;
    }

    /**
     * The acquire under the server's bound, set with {@code set_config(..., true)} for this round trip only (as the
     * renewal's): a lock wait past it ends with SQLState 55P03, which counts as "held", and the statement is dead
     * when the client hears of it.
     */
    @Override
    long acquire(Connection c, String name, String token, String owner, long leaseMicros) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(attemptBound + acquireSql)) {
            ps.setString(1, name);
            ps.setString(2, token);
            ps.setLong(3, leaseMicros);
            ps.setString(4, owner);
            return fenceAfterBound(ps);
        }
    }

    /** The hand-over under the server's bound, as {@link #acquire}. */
    @Override
    long handOver(Connection c, String name, String fromToken, String toToken, String owner, long leaseMicros)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(attemptBound + handOverSql)) {
            bindHandOver(ps, name, fromToken, toToken, owner, leaseMicros);
            return fenceAfterBound(ps);
        }
    }

    /** Runs {@code set_config(...); <statement>} and reads the statement's fence row: 0 if it returned none. */
    private static long fenceAfterBound(PreparedStatement ps) throws SQLException {
        ps.execute(); // the first result is set_config's
        if (!ps.getMoreResults()) {
            throw new SQLException("the statement after set_config returned no result", "HY000");
        }
        try (ResultSet rs = ps.getResultSet()) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    @Override
    Set<String> renew(Connection c, Map<String, String> tokensByName, long leaseMicros, int timeoutSeconds)
            throws SQLException {
        Array names = c.createArrayOf("varchar", tokensByName.keySet().toArray());
        Array tokens = c.createArrayOf("varchar", tokensByName.values().toArray());
        Set<String> renewed = new HashSet<>();
        // the bound is the server's (a local setting lives as long as the implicit transaction of this one round
        // trip), not the driver's query timeout: pgjdbc cancels over a connection of its own and waits for that,
        // which on a path that stopped answering took the cancel's own 10 s on top of the socket timeout.
        // set_config(..., true) rather than SET LOCAL, which outside BEGIN draws the server's WARNING "SET LOCAL can
        // only be used in transaction blocks" into its log at every renewal
        try (PreparedStatement ps = c.prepareStatement("SELECT set_config('statement_timeout', '"
                + timeoutSeconds * 1000L + "', true); " + renewSql)) {
            ps.setLong(1, leaseMicros);
            ps.setArray(2, names);
            ps.setArray(3, tokens);
            ps.execute(); // the first result is set_config's
            if (!ps.getMoreResults()) {
                throw new SQLException("the renewal returned no rows", "HY000");
            }
            try (ResultSet rs = ps.getResultSet()) {
                while (rs.next()) {
                    if (rs.getString(2).equals(tokensByName.get(rs.getString(1)))) {
                        renewed.add(rs.getString(1));
                    }
                }
            }
        } finally {
            names.free();
            tokens.free();
        }
        return renewed;
    }

    @Override
    boolean isContention(SQLException e) {
        String state = sqlState(e);
        // serialization failure, deadlock, lock not available, unique violation
        return state.equals("40001") || state.equals("40P01") || state.equals("55P03") || state.equals("23505");
    }

    /**
     * A backend waiting for a lock notices its client's departure only when it next writes to it, so a probe or
     * create blocked by another session's lock on the table (an open transaction's {@code LOCK TABLE}, an uncommitted
     * create of the name) would wait on, holding a connection slot, after the store gave up: the session's
     * {@code statement_timeout} is set a little under the client's bound for {@code change}, and reset after, however
     * {@code change} ends (the pooled connection goes back to the pool for its next user unless it broke). Its
     * cancellation (57014) is reported as the timeout it is.
     */
    @Override
    <T> T boundingLockWaits(Connection c, long millis, JdbcBackend.SqlWork<T> change) throws SQLException {
        try (java.sql.Statement st = c.createStatement()) {
            st.execute("SELECT set_config('statement_timeout', '" + Math.max(1, millis - millis / 10) + "', false)");
        }
        T result;
        try {
            result = change.run(c);
        } catch (SQLException e) {
            throw resetAfter(c, !sqlState(e).equals("57014") ? e : new java.sql.SQLTimeoutException(
                    "the database kept a table's probe or creation waiting for more than "
                            + (millis - millis / 10) + " ms (another session holding a lock on the table?): "
                            + e.getMessage(), "57014", e));
        } catch (RuntimeException e) {
            throw resetAfter(c, e);
        } catch (Error e) {
            throw resetAfter(c, e);
        }
        try (java.sql.Statement st = c.createStatement()) {
            st.execute("RESET statement_timeout");
        }
        return result;
    }

    /** Resets {@code c}'s statement_timeout after {@code failure} and returns it, a failed reset added to it. */
    private static <X extends Throwable> X resetAfter(Connection c, X failure) {
        try (java.sql.Statement st = c.createStatement()) {
            st.execute("RESET statement_timeout");
        } catch (SQLException reset) {
            failure.addSuppressed(reset);
        }
        return failure;
    }

    @Override
    boolean isMissingTable(SQLException e) {
        return sqlState(e).equals("42P01");
    }

    /** PostgreSQL text holds no NUL character ("invalid byte sequence for encoding UTF8: 0x00", SQLState 22021). */
    @Override
    void requireStorable(String text, String what) {
        int nul = text.indexOf('\0');
        if (nul >= 0) {
            throw new IllegalArgumentException(what + " holds a NUL character (\\u0000) at index " + nul
                    + ", which PostgreSQL cannot store in text");
        }
    }
}
