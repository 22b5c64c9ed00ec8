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
 * The raw limit for SQL: the two statements a lock with expiry and a fence needs, sent by hand in auto-commit on a
 * HikariCP pool set up as distlock's own (same size, driver properties and session setup), on a table keyed and
 * collated as distlock's: an upsert that takes the row when it is free or expired (the database's clock decides)
 * and bumps its fence, and an update that frees it only for its owner. No waiting (uncontended scenarios only).
 */
public final class RawSqlContender extends Contender {

    private final CompetitorSql database;
    private final HostPort server;

    /** A raw client for the database of {@code database} at {@code server}. */
    public RawSqlContender(CompetitorSql database, HostPort server) {
        super("raw upsert + update", Role.RAW);
        this.database = database;
        this.server = server;
    }

    @Override
    protected LockClient openClient() {
        return new Client(Pools.likeDistlock(database.rawJdbcUrl(server), database.rawDriverProperties(),
                database.rawInitSql(), "bench-raw-" + database.storeName()), database);
    }

    /** One connection pool. */
    private static final class Client implements LockClient {
        private final HikariDataSource pool;
        private final CompetitorSql database;

        Client(HikariDataSource pool, CompetitorSql database) {
            this.pool = pool;
            this.database = database;
        }

        @Override
        public Held acquire(String name) throws SQLException {
            String token = OwnerTokens.newToken();
            if (update(database.rawAcquire(), name, token) == 0) {
                throw new IllegalStateException("raw acquire of '" + name
                        + "' found it held; the raw limit never waits");
            }
            return () -> {
                if (update(database.rawRelease(), name, token) != 1) {
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
