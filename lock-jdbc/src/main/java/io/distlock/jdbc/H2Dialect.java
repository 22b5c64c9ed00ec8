package io.distlock.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;

/**
 * H2 (embedded, in-memory or server mode). Acquire is one {@code MERGE INTO ... USING ... WHEN MATCHED AND <free or
 * expired> THEN UPDATE ... WHEN NOT MATCHED THEN INSERT}, wrapped in {@code SELECT fence FROM FINAL TABLE (...)} so
 * the new fence comes back in the same round trip; no row back means held. A concurrent insert of the same new
 * name fails with a duplicate key, which counts as held. The new fence is the larger of the old one plus one and the
 * database clock in microseconds (see {@link SqlDialect#fenceSeed()}). Time is H2's {@code CURRENT_TIMESTAMP}, the
 * clock of the JVM that runs the database.
 */
final class H2Dialect extends SqlDialect {

    private final String acquireSql;
    private final String handOverSql;

    H2Dialect(String table) {
        super(table);
        this.acquireSql = "SELECT fence FROM FINAL TABLE (MERGE INTO " + table + " AS l"
                + " USING (VALUES (CAST(? AS VARCHAR), CAST(? AS VARCHAR), CAST(? AS BIGINT), CAST(? AS VARCHAR)))"
                + " AS s(name, token, micros, owner) ON l.name = s.name"
                + " WHEN MATCHED AND (l.owner_token IS NULL OR l.expires_at IS NULL"
                + " OR l.expires_at <= CURRENT_TIMESTAMP) THEN UPDATE SET owner_token = s.token,"
                + " fence = GREATEST(l.fence + 1, " + fenceSeed() + "),"
                + " expires_at = DATEADD(MICROSECOND, s.micros, CURRENT_TIMESTAMP),"
                + " owner = s.owner, acquired_at = CURRENT_TIMESTAMP"
                + " WHEN NOT MATCHED THEN INSERT (name, owner_token, fence, expires_at, owner, acquired_at)"
                + " VALUES (s.name, s.token, " + fenceSeed() + ","
                + " DATEADD(MICROSECOND, s.micros, CURRENT_TIMESTAMP), s.owner, CURRENT_TIMESTAMP))";
        this.handOverSql = "SELECT fence FROM FINAL TABLE ("
                + handOverUpdate("GREATEST(fence + 1, " + fenceSeed() + ")") + ")";
    }

    @Override
    String name() {
        return "h2";
    }

    @Override
    String driverClass() {
        return "org.h2.Driver";
    }

    /**
     * H2's read timeout of a client socket, in milliseconds; H2 ignores {@link Connection#setNetworkTimeout} and the
     * timeout of {@link Connection#isValid}, so without it a server that stops answering hangs a statement forever.
     */
    static final String NETWORK_TIMEOUT = "NETWORK_TIMEOUT";

    /**
     * {@code NETWORK_TIMEOUT} set to {@code distlock.socketTimeoutMillis}, unless the URL sets it after a {@code ;}
     * itself (H2 refuses a setting given twice with two values).
     */
    @Override
    Map<String, String> driverProperties(JdbcSettings settings) {
        if (settings.hasQuery()) {
            throw new IllegalArgumentException("H2 takes its settings after ';' (jdbc:h2:mem:locks;DB_CLOSE_DELAY=-1),"
                    + " not as '?' parameters, in " + settings.redacted() + "; only distlock.* options go after '?'");
        }
        if (urlSetting(settings.driverUrl(), NETWORK_TIMEOUT) != null) {
            return Map.of();
        }
        return Map.of(NETWORK_TIMEOUT, Long.toString(settings.socketTimeoutMillis()));
    }

    /** The value of H2 setting {@code name} (case-insensitive) among the {@code ;NAME=value} parts of {@code url}. */
    static String urlSetting(String url, String name) {
        String[] parts = url.split(";");
        for (int i = 1; i < parts.length; i++) {
            int eq = parts[i].indexOf('=');
            if (eq > 0 && parts[i].substring(0, eq).trim().equalsIgnoreCase(name)) {
                return parts[i].substring(eq + 1);
            }
        }
        return null;
    }

    @Override
    String schemaResource(Connection connection) {
        return "schema-h2.sql";
    }

    @Override
    String now() {
        return "CURRENT_TIMESTAMP";
    }

    @Override
    String nowPlusMicros() {
        return "DATEADD(MICROSECOND, CAST(? AS BIGINT), CURRENT_TIMESTAMP)";
    }

    @Override
    String microsLeft() {
        return "DATEDIFF(MICROSECOND, CURRENT_TIMESTAMP, expires_at)";
    }

    @Override
    String fenceSeed() {
        return "DATEDIFF(MICROSECOND, TIMESTAMP WITH TIME ZONE '1970-01-01 00:00:00+00', CURRENT_TIMESTAMP)";
    }

    @Override
    long acquire(Connection c, String name, String token, String owner, long leaseMicros) throws SQLException {
        return fenceFromQuery(c, acquireSql, name, token, owner, leaseMicros);
    }

    @Override
    long handOver(Connection c, String name, String fromToken, String toToken, String owner, long leaseMicros)
            throws SQLException {
        return fenceFromHandOverQuery(c, handOverSql, name, fromToken, toToken, owner, leaseMicros);
    }

    @Override
    boolean isContention(SQLException e) {
        int code = e.getErrorCode();
        // 23505 duplicate key, 40001 deadlock, 50200 lock timeout, 90131 concurrent update
        return code == 23505 || code == 40001 || code == 50200 || code == 90131;
    }

    /**
     * 42102 not found, 42104 not found in an empty database, and 42103 "not found (candidates are: ...)", which H2
     * also answers while another session is creating the very table (DEFECTS S40).
     */
    @Override
    boolean isMissingTable(SQLException e) {
        int code = e.getErrorCode();
        return code == 42102 || code == 42103 || code == 42104 || sqlState(e).equals("42S02");
    }
}
