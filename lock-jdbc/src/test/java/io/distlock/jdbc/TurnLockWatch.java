package io.distlock.jdbc;

import io.distlock.spi.StoreUri;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A connection of a test's own to the MariaDB a store under test uses, that watches the store's turn locks
 * ({@link MariaDbTurns}) from outside: who holds one, who queues for one, and kills a connection as an operator would.
 */
final class TurnLockWatch implements AutoCloseable {

    private final String table;
    private final Connection connection;

    /** Connects to the database of the store URI {@code uri}, whose turn locks are named after {@code table}. */
    TurnLockWatch(String uri, String table) throws SQLException {
        this.table = table;
        this.connection = DriverManager.getConnection(JdbcSettings.parse(StoreUri.parse(uri)).driverUrl());
    }

    /** The connection, for a test's other statements. */
    Connection connection() {
        return connection;
    }

    /** The turn lock's key of lock {@code name} in the watched table. */
    String key(String name) {
        return new MariaDbTurns(null, table, null, 1, 1, 1000, "test").turnKey(name);
    }

    /** The id of the connection that holds the turn lock {@code key}, or 0 if none does. */
    long holder(String key) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(
                "SELECT IS_USED_LOCK(" + MariaDbTurns.TURN_LOCK + ")")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0; // NULL (free) reads as 0
            }
        }
    }

    /** Whether a connection holds the turn lock {@code key}. */
    boolean held(String key) throws SQLException {
        return holder(key) > 0;
    }

    /** Whether a connection waits in {@code GET_LOCK} for the turn lock {@code key}. */
    boolean queued(String key) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("SELECT COUNT(*) FROM information_schema.PROCESSLIST"
                + " WHERE STATE = 'User lock' AND INFO LIKE ?")) {
            ps.setString(1, "%GET_LOCK%" + key + "%");
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getInt(1) > 0;
            }
        }
    }

    /** Kills the server connection {@code id}, as an operator's {@code KILL CONNECTION}. */
    void kill(long id) throws SQLException {
        try (PreparedStatement kill = connection.prepareStatement("KILL CONNECTION " + id)) {
            kill.execute();
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
