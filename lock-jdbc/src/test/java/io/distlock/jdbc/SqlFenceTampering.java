package io.distlock.jdbc;

import io.distlock.spi.StoreUri;
import io.distlock.tck.FenceStateTampering;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The kit's hand on an SQL store's fences (§19), as an operator's statements on its own connection: a lock's row
 * in the lock table, and a semaphore's counter row (slot 0) in the permit table, deleted or given another
 * {@code fence}. The column is {@code BIGINT NOT NULL}, so only numbers apply (0, -5, 10^12 ahead, the largest).
 */
final class SqlFenceTampering implements FenceStateTampering {

    private final JdbcSettings settings;

    /** Tampering on the tables of the store at {@code storeUri}. */
    SqlFenceTampering(String storeUri) {
        this.settings = JdbcSettings.parse(StoreUri.parse(storeUri));
    }

    @Override
    public boolean forgetLock(String name) throws SQLException {
        return run("DELETE FROM " + settings.table() + " WHERE name = ?", name);
    }

    @Override
    public boolean overwriteLock(String name, ForeignValue value) throws SQLException {
        String fence = fence(value);
        return fence != null && run("UPDATE " + settings.table() + " SET fence = " + fence + " WHERE name = ?", name);
    }

    @Override
    public boolean forgetSemaphore(String name) throws SQLException {
        return run("DELETE FROM " + permits() + " WHERE name = ? AND slot = 0", name);
    }

    @Override
    public boolean overwriteSemaphore(String name, ForeignValue value) throws SQLException {
        String fence = fence(value);
        return fence != null && run("UPDATE " + permits() + " SET fence = " + fence + " WHERE name = ? AND slot = 0",
                name);
    }

    private String permits() {
        return settings.table() + "_permits";
    }

    /** The new fence as an SQL expression, or null if a BIGINT NOT NULL cannot hold the value. */
    private static String fence(ForeignValue value) {
        return switch (value) {
            case ZERO -> "0";
            case NEGATIVE -> "-5";
            case FAR_AHEAD -> "fence + 1000000000000";
            case LARGEST -> Long.toString(Long.MAX_VALUE);
            default -> null;
        };
    }

    private boolean run(String sql, String name) throws SQLException {
        try (Connection c = DriverManager.getConnection(settings.driverUrl());
                PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, name);
            if (ps.executeUpdate() != 1) {
                throw new IllegalStateException("no fence row of '" + name + "' for: " + sql);
            }
            return true;
        }
    }
}
