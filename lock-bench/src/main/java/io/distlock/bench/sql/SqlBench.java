package io.distlock.bench.sql;

import io.distlock.bench.core.Contender;
import io.distlock.bench.core.HostPort;
import io.distlock.bench.core.StoreBench;
import io.distlock.bench.distlock.DistlockContender;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import io.distlock.bench.core.WireProtocol;
import java.util.List;
import java.util.OptionalLong;
import java.util.Locale;

/**
 * A shared SQL database (MariaDB or PostgreSQL, database {@code test}): distlock, Spring Integration's
 * {@code JdbcLockRegistry}, ShedLock's JDBC provider and the raw two statements. Creates the tables the other
 * contenders need if missing (Spring's {@code INT_LOCK} from the DDL shipped in its jar, ShedLock's
 * {@code shedlock}, and the raw baseline's {@code bench_raw_locks}).
 */
public final class SqlBench implements StoreBench {

    private final CompetitorSql database;
    private final HostPort server;
    private final String distlockUri;

    /** The database of {@code database} at {@code server}; {@code distlockUri} is a template with {host}, {port}. */
    public SqlBench(CompetitorSql database, HostPort server, String distlockUri) throws SQLException {
        this.database = database;
        this.server = server;
        this.distlockUri = distlockUri;
        createTables();
    }

    private void createTables() throws SQLException {
        try (Connection c = DriverManager.getConnection(database.jdbcUrl(server)); Statement s = c.createStatement()) {
            s.execute(springLockTable());
            s.execute(database.rawTable());
            s.execute(database.shedLockTable());
        }
    }

    /** The CREATE TABLE INT_LOCK statement of Spring Integration's schema script, made idempotent. */
    private String springLockTable() {
        String script;
        try (InputStream in = SqlBench.class.getClassLoader().getResourceAsStream(database.springSchema())) {
            if (in == null) {
                throw new IllegalStateException("Spring Integration schema " + database.springSchema()
                        + " not on the class path");
            }
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int start = script.toUpperCase(Locale.ROOT).indexOf("CREATE TABLE INT_LOCK");
        if (start < 0) {
            throw new IllegalStateException("no CREATE TABLE INT_LOCK in " + database.springSchema());
        }
        String statement = script.substring(start, script.indexOf(';', start));
        return "CREATE TABLE IF NOT EXISTS" + statement.substring("CREATE TABLE".length());
    }

    @Override
    public String name() {
        return database.storeName();
    }

    @Override
    public String describeServer() throws SQLException {
        try (Connection c = DriverManager.getConnection(database.jdbcUrl(server)); Statement s = c.createStatement();
             ResultSet r = s.executeQuery(database.versionQuery())) {
            r.next();
            String version = r.getString(1);
            return (database == CompetitorSql.MARIADB ? "MariaDB " : "") + version.split(",")[0] + " at " + server;
        }
    }

    @Override
    public WireProtocol protocol() {
        return database == CompetitorSql.MARIADB ? WireProtocol.MYSQL : WireProtocol.POSTGRESQL;
    }

    /**
     * Rows whose lock name contains {@code marker} in distlock's lock and fence tables, ShedLock's table and the raw
     * baseline's (Spring Integration keys its rows by a UUID of the name, so they cannot be told apart).
     */
    @Override
    public OptionalLong leftover(String marker) throws SQLException {
        String[][] tables = {{"distlock_locks", "name"}, {"distlock_fences", "resource"}, {"shedlock", "name"},
            {"bench_raw_locks", "name"}};
        long total = 0;
        try (Connection c = DriverManager.getConnection(database.jdbcUrl(server))) {
            for (String[] t : tables) {
                try (java.sql.PreparedStatement ps = c.prepareStatement(
                        "SELECT COUNT(*) FROM " + t[0] + " WHERE " + t[1] + " LIKE ?")) {
                    ps.setString(1, "%" + marker + "%");
                    try (ResultSet r = ps.executeQuery()) {
                        r.next();
                        total += r.getLong(1);
                    }
                } catch (SQLException e) {
                    if (!c.getAutoCommit()) {
                        c.rollback();
                    }
                    // a table that does not exist holds nothing
                }
            }
        }
        return OptionalLong.of(total);
    }

    /**
     * 16 on MariaDB, 8 on PostgreSQL: every waiter is its own client with its own pool (and on PostgreSQL a listening
     * connection), and the shared servers allow 151 (MariaDB) and 100 (PostgreSQL) connections for everyone; at 16
     * on PostgreSQL Spring Integration's pools found no free slot (PoolInitializationException), which other users of
     * the server would meet too.
     */
    @Override
    public int maxWaiters() {
        return database == CompetitorSql.MARIADB ? 16 : 8;
    }

    @Override
    public HostPort server() {
        return server;
    }

    /**
     * Every contender; distlock's clients each on their own spelling of the URL ({@link SeparateClientUri}), so two
     * clients share no in-process wake-ups, as two services cannot.
     */
    @Override
    public List<Contender> contenders(HostPort via) {
        String uri = via.fill(distlockUri);
        return List.of(
                new DistlockContender(client -> SeparateClientUri.of(uri, client)),
                new SpringJdbcContender(database, via),
                new ShedLockContender(database, via),
                new RawSqlContender(database, via));
    }

    @Override
    public void close() {
        // the shared database is not ours to stop
    }
}
