package io.distlock.jdbc;

import io.distlock.Arguments;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * MySQL and MariaDB, through MySQL Connector/J ({@code jdbc:mysql:}) or the MariaDB client ({@code jdbc:mariadb:}).
 *
 * <p>Acquire is one {@code INSERT ... ON DUPLICATE KEY UPDATE}: a new name is inserted with the database clock in
 * microseconds as its fence; an existing row is taken over only if free or expired by {@code NOW(3)}, with the larger
 * of fence + 1 and that clock (see {@link SqlDialect#fenceSeed()}).
 * Either way the new fence is read from the same round trip through {@code LAST_INSERT_ID(expr)} (the generated
 * key). The outcome is read from the affected-row count,
 * which is only meaningful with {@code useAffectedRows=true}: 1 inserted, 2 taken over, 0 held by someone else.
 * Without it both drivers report <em>matched</em> rows, and "held" would also read 1, so the store forces it and
 * rejects a URL that turns it off. Sessions are pinned to UTC so that {@code DATETIME} values mean the same to
 * every client.
 */
final class MySqlDialect extends SqlDialect {

    private final boolean mariadbClient;
    private final String acquireSql;
    private final String handOverSql;

    MySqlDialect(String table, boolean mariadbClient) {
        super(table);
        this.mariadbClient = mariadbClient;
        // owner_token is assigned first, from the row as it was; every later assignment tests whether it now holds
        // our (unique, random) token, because MySQL evaluates ON DUPLICATE KEY UPDATE assignments left to right
        // against the columns already assigned.
        String ours = "owner_token = VALUES(owner_token)";
        this.acquireSql = "INSERT INTO " + table + " (name, owner_token, fence, expires_at, owner, acquired_at)"
                + " VALUES (?, ?, LAST_INSERT_ID(" + fenceSeed() + "), " + nowPlusMicros() + ", ?, NOW(3))"
                + " ON DUPLICATE KEY UPDATE"
                + " owner_token = IF(owner_token IS NULL OR expires_at IS NULL OR expires_at <= NOW(3),"
                + " VALUES(owner_token), owner_token),"
                + " fence = IF(" + ours + ", LAST_INSERT_ID(GREATEST(fence + 1, " + fenceSeed() + ")), fence),"
                + " expires_at = IF(" + ours + ", VALUES(expires_at), expires_at),"
                + " owner = IF(" + ours + ", VALUES(owner), owner),"
                + " acquired_at = IF(" + ours + ", VALUES(acquired_at), acquired_at)";
        // the new fence comes back as the generated key, as in the acquire
        this.handOverSql = handOverUpdate("LAST_INSERT_ID(GREATEST(fence + 1, " + fenceSeed() + "))");
    }

    /** The acquire upsert (parameters: name, token, lease micros, owner), for tests of the affected-row count. */
    String acquireSql() {
        return acquireSql;
    }

    @Override
    String name() {
        return mariadbClient ? "mariadb" : "mysql";
    }

    @Override
    String driverClass() {
        return mariadbClient ? "org.mariadb.jdbc.Driver" : "com.mysql.cj.jdbc.Driver";
    }

    @Override
    Map<String, String> driverProperties(JdbcSettings settings) {
        String affected = settings.urlProperty("useAffectedRows");
        if (affected != null && !affected.equalsIgnoreCase("true")) {
            throw new IllegalArgumentException("useAffectedRows=" + affected + " in " + settings.redacted()
                    + " is not supported: the store reads changed-row counts to tell a taken lock from a held one;"
                    + " remove the parameter");
        }
        Map<String, String> props = new LinkedHashMap<>();
        props.put("useAffectedRows", "true");
        props.put("connectTimeout", Long.toString(settings.connectTimeoutMillis()));
        props.put("socketTimeout", Long.toString(settings.socketTimeoutMillis()));
        props.put("tcpKeepAlive", "true");
        return props;
    }

    /**
     * Whether the connection reports changed rows, seen by its effect: a probe row inserted and updated to the same
     * values must read 0, inside a transaction rolled back at once (the probe's random name is never seen by
     * anyone). {@code useAffectedRows=false} reaches the drivers in forms the URL's query check does not read: in a
     * Connector/J host section ({@code (host=h,port=3306,useAffectedRows=false)},
     * {@code address=(host=h)(useAffectedRows=false)}), or, for the MariaDB client, as a second, differently cased
     * parameter ({@code useAffectedRows=true&useaffectedrows=false}); with it a held lock reads as inserted.
     */
    @Override
    String sessionProblem(Connection c) throws SQLException {
        String probe = "distlock:probe:" + java.util.UUID.randomUUID();
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO " + table
                    + " (name, owner_token, fence, expires_at, owner, acquired_at)"
                    + " VALUES (?, NULL, 0, NULL, NULL, NULL)")) {
                insert.setString(1, probe);
                insert.executeUpdate();
            }
            int rows;
            try (PreparedStatement unchanged = c.prepareStatement(
                    "UPDATE " + table + " SET fence = fence WHERE name = ?")) {
                unchanged.setString(1, probe);
                rows = unchanged.executeUpdate();
            }
            return rows == 0 ? null : "the connection reports matched rows, not changed rows (an UPDATE that changed"
                    + " nothing read " + rows + "): useAffectedRows=false reached the driver (in the query or in a host"
                    + " section such as (host=...,useAffectedRows=false)), and with it a lock held by someone else"
                    + " reads as taken; remove useAffectedRows=false wherever the URL sets it";
        } finally {
            c.rollback();
            c.setAutoCommit(autoCommit);
        }
    }

    /** A session on the server's clock, in UTC: run on every connection the store opens (pool and turns). */
    static final String SESSION_CLOCK = "SET time_zone = '+00:00', timestamp = DEFAULT";

    @Override
    String connectionInitSql() {
        return SESSION_CLOCK;
    }

    @Override
    String schemaResource(Connection connection) throws SQLException {
        return isMariaDb(connection) ? "schema-mariadb.sql" : "schema-mysql.sql";
    }

    @Override
    String now() {
        return "NOW(3)";
    }

    @Override
    String nowPlusMicros() {
        return "NOW(3) + INTERVAL ? MICROSECOND";
    }

    @Override
    String microsLeft() {
        return "TIMESTAMPDIFF(MICROSECOND, NOW(3), expires_at)";
    }

    @Override
    String fenceSeed() {
        // the session is pinned to UTC, so UNIX_TIMESTAMP reads NOW(6) back as the true epoch time
        return "CAST(UNIX_TIMESTAMP(NOW(6)) * 1000000 AS SIGNED)";
    }

    @Override
    long acquire(Connection c, String name, String token, String owner, long leaseMicros) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(acquireSql, Statement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, name);
            ps.setString(2, token);
            ps.setLong(3, leaseMicros);
            ps.setString(4, owner);
            int rows = ps.executeUpdate();
            switch (rows) {
                case 0:
                    return 0;
                case 1:
                case 2:
                    try (ResultSet keys = ps.getGeneratedKeys()) {
                        if (keys.next() && keys.getLong(1) > 0) {
                            return keys.getLong(1);
                        }
                    }
                    throw new SQLException("the " + name() + " driver returned no LAST_INSERT_ID after taking over "
                            + Arguments.quoted(name), "HY000");
                default:
                    throw new SQLException("unexpected affected-row count " + rows + " from the acquire upsert",
                            "HY000");
            }
        }
    }

    @Override
    long handOver(Connection c, String name, String fromToken, String toToken, String owner, long leaseMicros)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(handOverSql, Statement.RETURN_GENERATED_KEYS)) {
            bindHandOver(ps, name, fromToken, toToken, owner, leaseMicros);
            if (ps.executeUpdate() != 1) {
                return 0;
            }
            try (ResultSet keys = ps.getGeneratedKeys()) {
                if (keys.next() && keys.getLong(1) > 0) {
                    return keys.getLong(1);
                }
            }
            throw new SQLException("the " + name() + " driver returned no LAST_INSERT_ID after handing over "
                    + Arguments.quoted(name), "HY000");
        }
    }

    /**
     * Through Connector/J on a MariaDB server, the server's {@code SET STATEMENT max_statement_time} (error 1969 when
     * it runs out): Connector/J's query timeout sends {@code KILL QUERY} over a new connection and waits for it, so on
     * a path that stopped answering a statement outlived the socket timeout by that connection's own. The MariaDB
     * client already bounds its query timeout this way on MariaDB; on MySQL servers the driver's timeout stays.
     */
    @Override
    PreparedStatement prepareBounded(Connection c, String sql, int timeoutSeconds) throws SQLException {
        if (mariadbClient || !isMariaDb(c)) {
            return super.prepareBounded(c, sql, timeoutSeconds);
        }
        return c.prepareStatement("SET STATEMENT max_statement_time = " + timeoutSeconds + " FOR " + sql);
    }

    private static boolean isMariaDb(Connection c) throws SQLException {
        String version = c.getMetaData().getDatabaseProductVersion();
        return version != null && version.contains("MariaDB");
    }

    @Override
    boolean isContention(SQLException e) {
        String state = sqlState(e);
        int code = e.getErrorCode();
        // 1213 deadlock, 1205 lock wait timeout, 1062 duplicate key
        return state.equals("40001") || code == 1213 || code == 1205 || code == 1062;
    }

    @Override
    boolean isMissingTable(SQLException e) {
        return e.getErrorCode() == 1146 || sqlState(e).equals("42S02");
    }
}
