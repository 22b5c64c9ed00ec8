package io.distlock.jdbc;

import io.distlock.spi.StoreUri;
import io.distlock.tck.SpoiledNameState;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The kit's hand on an SQL store's holder rows (§20), as an operator's statement on its own connection: a held lock's
 * row, or a semaphore's held permit rows, given an {@code owner_token} no grant writes (grants write random tokens),
 * so no holder's renewal or release matches them any more.
 */
final class SqlSpoiledNames implements SpoiledNameState {

    private static final String SPOILED = "'spoiled by an operator'";

    private final JdbcSettings settings;

    /** Spoiling in the tables of the store at {@code storeUri}. */
    SqlSpoiledNames(String storeUri) {
        this.settings = JdbcSettings.parse(StoreUri.parse(storeUri));
    }

    @Override
    public boolean spoilLock(String name) throws SQLException {
        return run("UPDATE " + settings.table() + " SET owner_token = " + SPOILED
                + " WHERE name = ? AND owner_token IS NOT NULL", name);
    }

    @Override
    public boolean spoilSemaphore(String name) throws SQLException {
        return run("UPDATE " + settings.table() + "_permits SET owner_token = " + SPOILED
                + " WHERE name = ? AND slot > 0 AND owner_token IS NOT NULL", name);
    }

    private boolean run(String sql, String name) throws SQLException {
        try (Connection c = DriverManager.getConnection(settings.driverUrl());
                PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, name);
            if (ps.executeUpdate() < 1) {
                throw new IllegalStateException("no held row of '" + name + "' for: " + sql);
            }
            return true;
        }
    }
}
