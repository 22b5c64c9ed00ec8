package io.distlock.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Builds the HikariCP pool a store uses: the dialect's driver named explicitly, the dialect's driver properties
 * (timeouts, {@code useAffectedRows}), autocommit, a short connection timeout so an unreachable database is
 * reported quickly as unavailable, and a small idle floor so many stores do not exhaust the server's connections.
 */
final class ConnectionPools {

    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private ConnectionPools() {
    }

    /** A started pool; fails (with HikariCP's exception) if no connection can be made within the connect timeout. */
    static HikariDataSource open(JdbcSettings settings, SqlDialect dialect) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("distlock-" + dialect.name() + "-" + SEQUENCE.incrementAndGet());
        config.setDriverClassName(dialect.driverClass());
        UrlCredentials credentials = UrlCredentials.split(settings.driverUrl());
        config.setJdbcUrl(credentials.url());
        if (credentials.user() != null) {
            config.setUsername(credentials.user());
        }
        if (credentials.password() != null) {
            config.setPassword(credentials.password());
        }
        dialect.driverProperties(settings).forEach((key, value) -> {
            if (settings.urlProperty(key) == null) {
                config.addDataSourceProperty(key, value);
            }
        });
        config.setAutoCommit(true);
        config.setMaximumPoolSize(settings.poolSize());
        config.setMinimumIdle(Math.min(1, settings.poolSize()));
        config.setConnectionTimeout(settings.connectTimeoutMillis());
        config.setValidationTimeout(Math.max(250, Math.min(settings.connectTimeoutMillis(), 1000)));
        config.setInitializationFailTimeout(settings.connectTimeoutMillis());
        if (dialect.connectionInitSql() != null) {
            config.setConnectionInitSql(dialect.connectionInitSql());
        }
        return new HikariDataSource(config);
    }
}
