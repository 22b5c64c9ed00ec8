package io.distlock.jdbc;

import io.distlock.spi.StoreUri;
import io.distlock.tck.NameLeftovers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/**
 * The kit's count of an SQL store's rows of names used once (§26): the rows of the lock table and of its permit table
 * whose name starts with a prefix, counted on a connection of its own, and an operator's {@code UPDATE} of a lock's
 * fence to the database clock in microseconds plus an amount.
 */
final class SqlNameLeftovers implements NameLeftovers {

    private final JdbcSettings settings;
    private final SqlDialect dialect;

    /** On the tables of the store at {@code storeUri}. */
    SqlNameLeftovers(String storeUri) {
        this.settings = JdbcSettings.parse(StoreUri.parse(storeUri));
        this.dialect = JdbcLockStoreProvider.dialectFor(settings);
    }

    @Override
    public Duration grace() {
        return RowSweeper.GRACE.plus(RowSweeper.INTERVAL);
    }

    @Override
    public long count(String namePrefix) throws SQLException {
        String like = JdbcLockAdmin.escapeLike(namePrefix) + "%";
        long rows = 0;
        try (Connection c = DriverManager.getConnection(settings.driverUrl())) {
            for (String table : new String[] {settings.table(), settings.table() + JdbcPermits.TABLE_SUFFIX}) {
                try (PreparedStatement ps = c.prepareStatement(
                        "SELECT COUNT(*) FROM " + table + " WHERE name LIKE ? ESCAPE '!'")) {
                    ps.setString(1, like);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        rows += rs.getLong(1);
                    }
                } catch (SQLException e) {
                    if (!dialect.isMissingTable(e)) { // the permit table is made by the first semaphore
                        throw e;
                    }
                }
            }
        }
        return rows;
    }

    @Override
    public long pushLockCounterAhead(String name, Duration ahead) throws SQLException {
        try (Connection c = DriverManager.getConnection(settings.driverUrl())) {
            try (PreparedStatement ps = c.prepareStatement("UPDATE " + settings.table() + " SET fence = "
                    + dialect.fenceSeed() + " + ? WHERE name = ? AND owner_token IS NULL")) {
                ps.setLong(1, ahead.toNanos() / 1000);
                ps.setString(2, name);
                if (ps.executeUpdate() != 1) {
                    throw new IllegalStateException("no free row of '" + name + "' to push ahead");
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT fence FROM " + settings.table()
                    + " WHERE name = ?")) {
                ps.setString(1, name);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        }
    }
}
