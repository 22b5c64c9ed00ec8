package io.distlock.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import io.distlock.LockException;
import io.distlock.StoreUnavailableException;
import io.distlock.spi.LockBackend;
import io.distlock.spi.LockStoreProvider;
import io.distlock.spi.StoreUri;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;

/**
 * The SQL store, for {@code jdbc:mysql:}, {@code jdbc:mariadb:}, {@code jdbc:postgresql:} and {@code jdbc:h2:}
 * URIs. Options are {@code distlock.*} query parameters (see {@link JdbcSettings}), removed before the URL reaches
 * the driver. Opening starts a HikariCP pool and makes sure the lock table exists.
 */
public final class JdbcLockStoreProvider implements LockStoreProvider {

    @Override
    public Set<String> schemes() {
        return Set.of("jdbc");
    }

    @Override
    public LockBackend open(StoreUri uri) {
        JdbcSettings settings = JdbcSettings.parse(uri);
        SqlDialect dialect = dialectFor(settings);
        dialect.driverProperties(settings); // validates the URL before any connection is made
        HikariDataSource pool = startPool(settings, dialect);
        try {
            try (Connection c = pool.getConnection()) {
                SchemaInstaller.lockTable(dialect, settings.redacted(), settings.socketTimeoutMillis())
                        .ensureLockTable(c, settings.createTable());
            }
            // settings that weaken safety are checked by their effect on a connection, in whatever form they took:
            // every connection the pool opens from now on, and the one it opened at start (it keeps one idle)
            ((DriverConnections) pool.getDataSource()).checkEveryConnection(dialect::sessionProblem);
            try (Connection first = pool.getConnection()) {
                String problem = dialect.sessionProblem(first);
                if (problem != null) {
                    throw new IllegalArgumentException("store " + settings.redacted() + ": " + problem);
                }
            }
        } catch (SQLException e) {
            pool.close();
            throw new SqlFailures(settings.redacted()).translate(e, "checking the lock table '" + settings.table()
                    + "'");
        } catch (WaitInterrupted e) {
            pool.close();
            throw e.unchecked("opening store " + settings.redacted());
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
        String signalsOf = StoreUri.redact(settings.driverUrl());
        SharedSignals.Table signals = SharedSignals.open(signalsOf, settings.table());
        RemoteWakeups remote = RemoteWakeups.NONE;
        try {
            remote = dialect instanceof PostgresDialect
                    ? new PostgresNotices(pool.getDataSource(), pool, settings.table(), signals,
                            Math.max(2000, 2 * settings.pollMaxMillis()), settings.connectTimeoutMillis(),
                            settings.redacted())
                    : dialect instanceof MySqlDialect && settings.turns()
                    ? new MariaDbTurns(pool.getDataSource(), settings.table(), signals.locks(),
                            settings.pollMinMillis(), settings.pollMaxMillis(), settings.socketTimeoutMillis(),
                            settings.redacted())
                    : RemoteWakeups.NONE;
            return new JdbcBackend(pool, dialect, signals, remote,
                    settings.pollMinMillis(), settings.pollMaxMillis(), settings.socketTimeoutMillis(),
                    settings.redacted(), () -> SharedSignals.close(signalsOf, settings.table()));
        } catch (RuntimeException e) {
            remote.close();
            SharedSignals.close(signalsOf, settings.table());
            pool.close();
            throw e;
        }
    }

    /** {@code message} on one line: drivers' messages run over several (PostgreSQL's FATAL, Connector/J's hints). */
    private static String oneLine(String message) {
        return message == null ? "" : message.strip().replaceAll("\\s*\\R\\s*", " ");
    }

    /** The dialect for the URL's sub-protocol. */
    static SqlDialect dialectFor(JdbcSettings settings) {
        switch (settings.subProtocol()) {
            case "mysql":
                return new MySqlDialect(settings.table(), false);
            case "mariadb":
                return new MySqlDialect(settings.table(), true);
            case "postgresql":
                return new PostgresDialect(settings.table(),
                        PostgresDialect.attemptBoundMillis(settings.socketTimeoutMillis()));
            case "h2":
                return new H2Dialect(settings.table());
            default:
                throw new IllegalArgumentException("unsupported database 'jdbc:" + settings.subProtocol() + ":' in "
                        + settings.redacted() + "; the jdbc store supports jdbc:mysql:, jdbc:mariadb:, "
                        + "jdbc:postgresql: and jdbc:h2:");
        }
    }

    /** A started pool for the store, with a connection failure reported as the store being unavailable or refusing. */
    static HikariDataSource startPool(JdbcSettings settings, SqlDialect dialect) {
        try {
            return ConnectionPools.open(settings, dialect);
        } catch (HikariPool.PoolInitializationException e) {
            Throwable cause = e.getCause();
            if (cause instanceof SQLException sql && SqlFailures.isLoginRefused(sql)) {
                throw new StoreUnavailableException("store " + settings.redacted() + " refused the login (SQLState "
                        + SqlDialect.sqlState(sql) + "): " + oneLine(sql.getMessage()), sql);
            }
            if (cause instanceof SQLException sql && !SqlFailures.isUnavailable(sql)) {
                throw new LockException("could not connect to store " + settings.redacted() + " (SQLState "
                        + SqlDialect.sqlState(sql) + "): " + sql.getMessage(), sql);
            }
            throw new StoreUnavailableException("could not connect to store " + settings.redacted() + " within "
                    + settings.connectTimeoutMillis() + " ms: " + (cause == null ? e.getMessage() : cause.getMessage()),
                    e);
        }
    }
}
