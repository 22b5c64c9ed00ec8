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

    private final String acquireSql;
    private final String renewSql;
    private final String handOverSql;

    PostgresDialect(String table) {
        super(table);
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

    @Override
    boolean isMissingTable(SQLException e) {
        return sqlState(e).equals("42P01");
    }
}
