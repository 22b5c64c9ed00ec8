package io.distlock.chaos;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A SQL store target: besides the server faults, an operator can delete a lock's row by hand. The deletion only
 * takes a row nobody holds (released, or expired by the database's clock), as a cleanup job would.
 */
interface SqlTarget extends StoreTarget {

    /** The table the workers' store uses (distlock's default). */
    String TABLE = "distlock_locks";

    /** The URI parameters that make a worker give up on a silent server after 1.5 s, as on every SQL store. */
    String CLIENT_TIMEOUTS = "distlock.connectTimeoutMillis=1500&distlock.socketTimeoutMillis=1500";

    /** A plain JDBC URL to the server's own port (not through a proxy), for the operator's statements. */
    String operatorJdbcUrl();

    /** The database's own "now", as the lock table's expiry compares it. */
    String nowExpression();

    /** The semaphore table the workers' store uses (distlock's default: the lock table's name and _permits). */
    String PERMIT_TABLE = TABLE + "_permits";

    /**
     * Deletes {@code lockName}'s row as soon as nobody holds it, trying for at most {@code within}.
     *
     * @return when the row was deleted (nanoTime), or -1 if no free moment came
     */
    default long deleteFreeRow(String lockName, Duration within) throws SQLException {
        return deleteUntilSomeGo("DELETE FROM " + TABLE + " WHERE name = ? AND (owner_token IS NULL"
                + " OR expires_at IS NULL OR expires_at <= " + nowExpression() + ")", lockName, within);
    }

    /**
     * Deletes what of semaphore {@code name} looks unused to an operator: its fence counter's row and every permit
     * row nobody holds (released, or expired by the database's clock), never a held permit. Tries for at most
     * {@code within}; the next permit's token must still be above every earlier one.
     *
     * @return when rows were deleted (nanoTime), or -1 if none could be
     */
    default long deleteFreePermitRows(String name, Duration within) throws SQLException {
        return deleteUntilSomeGo("DELETE FROM " + PERMIT_TABLE + " WHERE name = ? AND (slot = 0 OR owner_token IS NULL"
                + " OR expires_at IS NULL OR expires_at <= " + nowExpression() + ")", name, within);
    }

    /**
     * Runs the operator's {@code delete} of {@code name} (autocommit) until it deletes a row, for at most
     * {@code within}: polling for a free moment, as a cleanup job does.
     *
     * @return when rows were deleted (nanoTime), or -1 if none were
     */
    private long deleteUntilSomeGo(String delete, String name, Duration within) throws SQLException {
        try (Connection c = DriverManager.getConnection(operatorJdbcUrl());
                PreparedStatement st = c.prepareStatement(delete)) {
            c.setAutoCommit(true);
            st.setString(1, name);
            long deadline = System.nanoTime() + within.toNanos();
            while (System.nanoTime() - deadline < 0) {
                if (st.executeUpdate() > 0) {
                    return System.nanoTime();
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            }
            return -1;
        }
    }
}
