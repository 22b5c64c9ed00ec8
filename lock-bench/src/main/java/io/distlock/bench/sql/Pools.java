package io.distlock.bench.sql;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/** HikariCP pools configured alike for every SQL contender that brings no pool of its own. */
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
}
