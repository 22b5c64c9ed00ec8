package io.distlock.bench.sql;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.util.Map;

/** HikariCP pools for the SQL contenders that bring no pool of their own. */
final class Pools {

    private Pools() {
    }

    /** A pool of up to 10 connections (enough for the 8 benchmark threads) to {@code jdbcUrl}. */
    static HikariDataSource open(String jdbcUrl, String poolName) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setMaximumPoolSize(10);
        config.setPoolName(poolName);
        return new HikariDataSource(config);
    }

    /**
     * A pool set up as distlock's own store pool is (8 connections at most, 1 kept idle, autocommit, the same
     * driver properties and connection init SQL), so the raw baseline differs from distlock only in what it sends.
     */
    static HikariDataSource likeDistlock(String jdbcUrl, Map<String, String> driverProperties, String initSql,
                                         String poolName) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        driverProperties.forEach(config::addDataSourceProperty);
        config.setAutoCommit(true);
        config.setMaximumPoolSize(8);
        config.setMinimumIdle(1);
        config.setConnectionTimeout(3000);
        if (initSql != null) {
            config.setConnectionInitSql(initSql);
        }
        config.setPoolName(poolName);
        return new HikariDataSource(config);
    }
}
