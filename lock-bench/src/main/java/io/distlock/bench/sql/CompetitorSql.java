package io.distlock.bench.sql;

import io.distlock.bench.core.HostPort;
import java.util.Map;

/**
 * The SQL the other SQL contenders need on each database (MariaDB or PostgreSQL): the JDBC URL, Spring
 * Integration's schema script, ShedLock's table, and the raw baseline: its table (the key and token columns typed
 * and collated as in distlock's table), the connection settings distlock's pool uses, and its two statements (an
 * atomic upsert that takes a free or expired lock and bumps its fence, and an update that frees it only for its
 * owner).
 */
public enum CompetitorSql {

    /** MariaDB through its own Connector/J; affected rows (not found rows) so the upsert's result is exact. */
    MARIADB("mariadb", "jdbc:mariadb://{host}:{port}/test?user=root",
            "org/springframework/integration/jdbc/schema-mysql.sql",
            "CREATE TABLE IF NOT EXISTS bench_raw_locks ("
                    + "name VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL PRIMARY KEY, "
                    + "owner_token VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NULL, fence BIGINT NOT NULL, "
                    + "expires_at DATETIME(3) NULL) ENGINE=InnoDB",
            "INSERT INTO bench_raw_locks (name, owner_token, fence, expires_at) VALUES (?, ?, 1, NOW(3) + INTERVAL 30 "
                    + "SECOND) ON DUPLICATE KEY UPDATE "
                    + "owner_token = "
                    + "IF(owner_token IS NULL OR expires_at <= NOW(3), VALUES(owner_token), owner_token), "
                    + "fence = IF(owner_token = VALUES(owner_token), fence + 1, fence), "
                    + "expires_at = IF(owner_token = VALUES(owner_token), VALUES(expires_at), expires_at)",
            "UPDATE bench_raw_locks SET owner_token = NULL, expires_at = NULL WHERE name = ? AND owner_token = ?",
            // as distlock's MariaDB pool: exact affected rows, the same timeouts, UTC session clock
            Map.of("useAffectedRows", "true", "connectTimeout", "3000", "socketTimeout", "10000",
                    "tcpKeepAlive", "true"),
            "SET time_zone = '+00:00', timestamp = DEFAULT",
            "SELECT VERSION()",
            "CREATE TABLE IF NOT EXISTS shedlock (name VARCHAR(64) NOT NULL, lock_until TIMESTAMP(3) NOT NULL, "
                    + "locked_at TIMESTAMP(3) NOT NULL, locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))"),

    /** PostgreSQL; the raw upsert's conditional DO UPDATE reports 0 rows when the lock is held. */
    POSTGRESQL("postgresql", "jdbc:postgresql://{host}:{port}/test?user=postgres",
            "org/springframework/integration/jdbc/schema-postgresql.sql",
            "CREATE TABLE IF NOT EXISTS bench_raw_locks (name VARCHAR(255) NOT NULL PRIMARY KEY, "
                    + "owner_token VARCHAR(64) NULL, fence BIGINT NOT NULL, expires_at TIMESTAMP WITH TIME ZONE NULL)",
            "INSERT INTO bench_raw_locks AS l (name, owner_token, fence, expires_at) "
                    + "VALUES (?, ?, 1, clock_timestamp() + INTERVAL '30 seconds') "
                    + "ON CONFLICT (name) DO UPDATE SET owner_token = EXCLUDED.owner_token, fence = l.fence + 1, "
                    + "expires_at = EXCLUDED.expires_at "
                    + "WHERE l.owner_token IS NULL OR l.expires_at <= clock_timestamp()",
            "UPDATE bench_raw_locks SET owner_token = NULL, expires_at = NULL WHERE name = ? AND owner_token = ?",
            // as distlock's PostgreSQL pool (seconds here)
            Map.of("connectTimeout", "3", "socketTimeout", "10", "tcpKeepAlive", "true"),
            null,
            "SELECT VERSION()",
            // microsecond timestamps as ShedLock documents: rounding to milliseconds would leave a just-released
            // lock looking held until the next millisecond
            "CREATE TABLE IF NOT EXISTS shedlock (name VARCHAR(64) NOT NULL, lock_until TIMESTAMP NOT NULL, "
                    + "locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))");

    private final String storeName;
    private final String jdbcUrl;
    private final String springSchema;
    private final String rawTable;
    private final String rawAcquire;
    private final String rawRelease;
    private final Map<String, String> rawDriverProperties;
    private final String rawInitSql;
    private final String versionQuery;
    private final String shedLockTable;

    CompetitorSql(String storeName, String jdbcUrl, String springSchema, String rawTable, String rawAcquire,
                  String rawRelease, Map<String, String> rawDriverProperties, String rawInitSql, String versionQuery,
                  String shedLockTable) {
        this.storeName = storeName;
        this.jdbcUrl = jdbcUrl;
        this.springSchema = springSchema;
        this.rawTable = rawTable;
        this.rawAcquire = rawAcquire;
        this.rawRelease = rawRelease;
        this.rawDriverProperties = rawDriverProperties;
        this.rawInitSql = rawInitSql;
        this.versionQuery = versionQuery;
        this.shedLockTable = shedLockTable;
    }

    /** The store's name on the command line and in the report. */
    public String storeName() {
        return storeName;
    }

    /**
     * The JDBC URL of database {@code test} at {@code server}, for the other libraries. On MariaDB it asks for
     * affected rows: Spring Integration and ShedLock read update counts, and distlock does the same.
     */
    public String jdbcUrl(HostPort server) {
        String url = server.fill(jdbcUrl);
        return this == MARIADB ? url + "&useAffectedRows=true" : url;
    }

    /** The URL without driver options, for the raw baseline, whose driver settings come as properties. */
    String rawJdbcUrl(HostPort server) {
        return server.fill(jdbcUrl);
    }

    String springSchema() {
        return springSchema;
    }

    String rawTable() {
        return rawTable;
    }

    /** The raw acquire; parameters (name, token); 0 rows changed means held. */
    String rawAcquire() {
        return rawAcquire;
    }

    /** The raw release; parameters (name, token). */
    String rawRelease() {
        return rawRelease;
    }

    /** Driver properties of the raw baseline's pool: the ones distlock's pool sets on this database. */
    Map<String, String> rawDriverProperties() {
        return rawDriverProperties;
    }

    /** SQL run once on each new raw connection (as distlock's pool does), or null. */
    String rawInitSql() {
        return rawInitSql;
    }

    String shedLockTable() {
        return shedLockTable;
    }

    String versionQuery() {
        return versionQuery;
    }
}
