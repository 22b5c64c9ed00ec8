package io.distlock.bench.sql;

import io.distlock.bench.core.HostPort;

/**
 * What differs between MariaDB and PostgreSQL for the SQL contenders: the JDBC URL, Spring Integration's schema
 * script, ShedLock's table, and the two raw statements (an atomic upsert that takes a free or expired lock, and an update that
 * frees it only for its owner).
 */
public enum SqlDialect {

    /** MariaDB through its own Connector/J; affected rows (not found rows) so the upsert's result is exact. */
    MARIADB("mariadb", "jdbc:mariadb://{host}:{port}/test?user=root&useAffectedRows=true",
            "org/springframework/integration/jdbc/schema-mysql.sql",
            "CREATE TABLE IF NOT EXISTS BENCH_RAW_LOCK (NAME VARCHAR(200) NOT NULL PRIMARY KEY, "
                    + "OWNER VARCHAR(64), FENCE BIGINT NOT NULL, EXPIRES_AT DATETIME(3) NOT NULL) ENGINE=InnoDB",
            "INSERT INTO BENCH_RAW_LOCK (NAME, OWNER, FENCE, EXPIRES_AT) VALUES (?, ?, 1, NOW(3) + INTERVAL 30 SECOND) "
                    + "ON DUPLICATE KEY UPDATE "
                    + "FENCE = IF(EXPIRES_AT < NOW(3), FENCE + 1, FENCE), "
                    + "OWNER = IF(EXPIRES_AT < NOW(3), VALUES(OWNER), OWNER), "
                    + "EXPIRES_AT = IF(EXPIRES_AT < NOW(3), VALUES(EXPIRES_AT), EXPIRES_AT)",
            "UPDATE BENCH_RAW_LOCK SET OWNER = NULL, EXPIRES_AT = '1970-01-02 00:00:00' WHERE NAME = ? AND OWNER = ?",
            "SELECT VERSION()",
            "CREATE TABLE IF NOT EXISTS shedlock (name VARCHAR(64) NOT NULL, lock_until TIMESTAMP(3) NOT NULL, "
                    + "locked_at TIMESTAMP(3) NOT NULL, locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))"),

    /** PostgreSQL; the upsert's conditional DO UPDATE reports 0 rows when the lock is held. */
    POSTGRESQL("postgresql", "jdbc:postgresql://{host}:{port}/test?user=postgres",
            "org/springframework/integration/jdbc/schema-postgresql.sql",
            "CREATE TABLE IF NOT EXISTS BENCH_RAW_LOCK (NAME VARCHAR(200) NOT NULL PRIMARY KEY, "
                    + "OWNER VARCHAR(64), FENCE BIGINT NOT NULL, EXPIRES_AT TIMESTAMP(3) NOT NULL)",
            "INSERT INTO BENCH_RAW_LOCK (NAME, OWNER, FENCE, EXPIRES_AT) "
                    + "VALUES (?, ?, 1, LOCALTIMESTAMP + INTERVAL '30 seconds') "
                    + "ON CONFLICT (NAME) DO UPDATE SET OWNER = EXCLUDED.OWNER, FENCE = BENCH_RAW_LOCK.FENCE + 1, "
                    + "EXPIRES_AT = EXCLUDED.EXPIRES_AT WHERE BENCH_RAW_LOCK.EXPIRES_AT < LOCALTIMESTAMP",
            "UPDATE BENCH_RAW_LOCK SET OWNER = NULL, EXPIRES_AT = '1970-01-02 00:00:00' WHERE NAME = ? AND OWNER = ?",
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
    private final String versionQuery;
    private final String shedLockTable;

    SqlDialect(String storeName, String jdbcUrl, String springSchema, String rawTable, String rawAcquire,
               String rawRelease, String versionQuery, String shedLockTable) {
        this.storeName = storeName;
        this.jdbcUrl = jdbcUrl;
        this.springSchema = springSchema;
        this.rawTable = rawTable;
        this.rawAcquire = rawAcquire;
        this.rawRelease = rawRelease;
        this.versionQuery = versionQuery;
        this.shedLockTable = shedLockTable;
    }

    /** The store's name on the command line and in the report. */
    public String storeName() {
        return storeName;
    }

    /** The JDBC URL of database {@code test} at {@code server}. */
    public String jdbcUrl(HostPort server) {
        return server.fill(jdbcUrl);
    }

    String springSchema() {
        return springSchema;
    }

    String rawTable() {
        return rawTable;
    }

    String rawAcquire() {
        return rawAcquire;
    }

    String rawRelease() {
        return rawRelease;
    }

    String shedLockTable() {
        return shedLockTable;
    }

    String versionQuery() {
        return versionQuery;
    }
}
