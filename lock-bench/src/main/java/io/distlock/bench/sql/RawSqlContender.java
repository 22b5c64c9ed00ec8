package io.distlock.bench.sql;

import com.zaxxer.hikari.HikariDataSource;
import io.distlock.bench.core.Contender;
import io.distlock.bench.core.HostPort;
import io.distlock.bench.core.Held;
import io.distlock.bench.core.LockClient;
import io.distlock.bench.core.Role;
import io.distlock.spi.OwnerTokens;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The raw limit for SQL: the two statements a lock with expiry needs, sent by hand in auto-commit on a HikariCP
 * pool: an upsert that takes the row when it is free or expired (the database's clock decides) and an update that
 * frees it only for its owner. No waiting (uncontended scenarios only).
 */
public final class RawSqlContender extends Contender {

    private final SqlDialect dialect;
    private final HostPort server;

    /** A raw client for the database of {@code dialect} at {@code server}. */
    public RawSqlContender(SqlDialect dialect, HostPort server) {
        super("raw upsert + update", Role.RAW);
        this.dialect = dialect;
        this.server = server;
    }

    @Override
    protected LockClient openClient() {
        return new Client(Pools.open(dialect.jdbcUrl(server), "bench-raw-" + dialect.storeName()), dialect);
    }

    /** One connection pool. */
    private static final class Client implements LockClient {
        private final HikariDataSource pool;
        private final SqlDialect dialect;

        Client(HikariDataSource pool, SqlDialect dialect) {
            this.pool = pool;
            this.dialect = dialect;
        }

        @Override
        public Held acquire(String name) throws SQLException {
            String token = OwnerTokens.newToken();
            if (update(dialect.rawAcquire(), name, token) == 0) {
                throw new IllegalStateException("raw acquire of '" + name + "' found it held; the raw limit never waits");
            }
            return () -> {
                if (update(dialect.rawRelease(), name, token) != 1) {
                    throw new IllegalStateException("raw release of '" + name + "' found it no longer ours");
                }
            };
        }

        private int update(String sql, String name, String token) throws SQLException {
            try (Connection c = pool.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
                s.setString(1, name);
                s.setString(2, token);
                return s.executeUpdate();
            }
        }

        @Override
        public void close() {
            pool.close();
        }
    }
}
