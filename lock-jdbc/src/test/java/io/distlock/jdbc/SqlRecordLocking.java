package io.distlock.jdbc;

import io.distlock.spi.StoreUri;
import io.distlock.tck.RecordLocking;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The kit's hand for §24 on an SQL store: an operator's {@code SELECT ... FOR UPDATE} of a lock's row in a
 * transaction on its own connection (past any proxy the clients use), rolled back when closed.
 */
final class SqlRecordLocking implements RecordLocking {

    private final JdbcSettings settings;

    /** Row locks on the lock table of the store at {@code storeUri}. */
    SqlRecordLocking(String storeUri) {
        this.settings = JdbcSettings.parse(StoreUri.parse(storeUri));
    }

    @Override
    public AutoCloseable lockRecord(String name) throws SQLException {
        Connection operator = DriverManager.getConnection(settings.driverUrl());
        try {
            operator.setAutoCommit(false);
            try (PreparedStatement ps = operator.prepareStatement(
                    "SELECT name FROM " + settings.table() + " WHERE name = ? FOR UPDATE")) {
                ps.setString(1, name);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new IllegalStateException("no row for '" + name + "' in " + settings.table());
                    }
                }
            }
        } catch (SQLException | RuntimeException e) {
            operator.close();
            throw e;
        }
        return () -> {
            try (operator) {
                operator.rollback();
            }
        };
    }
}
