package io.distlock.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.distlock.LockException;
import java.sql.Driver;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Builds the HikariCP pool a store uses: the dialect's driver named explicitly, with the URL's secrets and the
 * dialect's driver properties (timeouts, {@code useAffectedRows}) as connection properties
 * ({@link DriverConnections}), autocommit, a short connection timeout so an unreachable database is reported quickly
 * as unavailable, and a small idle floor so many stores do not exhaust the server's connections.
 */
final class ConnectionPools {

    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private ConnectionPools() {
    }

    /** A started pool; fails (with HikariCP's exception) if no connection can be made within the connect timeout. */
    static HikariDataSource open(JdbcSettings settings, SqlDialect dialect) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("distlock-" + dialect.name() + "-" + SEQUENCE.incrementAndGet());
        UrlCredentials credentials = UrlCredentials.split(settings.driverUrl());
        Properties properties = new Properties();
        if (credentials.user() != null) {
            properties.setProperty("user", credentials.user());
        }
        if (credentials.password() != null) {
            properties.setProperty("password", credentials.password());
        }
        credentials.secretParameters().forEach(properties::setProperty);
        dialect.driverProperties(settings).forEach((key, value) -> {
            if (settings.urlProperty(key) == null) {
                properties.setProperty(key, value);
            }
        });
        config.setDataSource(new DriverConnections(driver(dialect), credentials.url(), properties,
                settings.redacted()));
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

    private static Driver driver(SqlDialect dialect) {
        try {
            return (Driver) Class.forName(dialect.driverClass(), true, ConnectionPools.class.getClassLoader())
                    .getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new LockException("the JDBC driver " + dialect.driverClass() + " for " + dialect.name()
                    + " is not on the class path: add the dependency " + driverArtifact(dialect.driverClass())
                    + " (lock-jdbc leaves the driver to the application)", e);
        }
    }

    /** The Maven coordinates of the artifact that holds {@code driverClass}. */
    static String driverArtifact(String driverClass) {
        return switch (driverClass) {
            case "org.postgresql.Driver" -> "org.postgresql:postgresql";
            case "com.mysql.cj.jdbc.Driver" -> "com.mysql:mysql-connector-j";
            case "org.mariadb.jdbc.Driver" -> "org.mariadb.jdbc:mariadb-java-client";
            case "org.h2.Driver" -> "com.h2database:h2";
            default -> "that holds " + driverClass;
        };
    }
}
