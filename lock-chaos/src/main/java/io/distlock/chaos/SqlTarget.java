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

    /**
     * Deletes {@code lockName}'s row as soon as nobody holds it, trying for at most {@code within}.
     *
     * @return when the row was deleted (nanoTime), or -1 if no free moment came
     */
    default long deleteFreeRow(String lockName, Duration within) throws SQLException {
        String sql = "DELETE FROM " + TABLE + " WHERE name = ? AND (owner_token IS NULL OR expires_at IS NULL"
                + " OR expires_at <= " + nowExpression() + ")";
        long deadline = System.nanoTime() + within.toNanos();
        try (Connection c = DriverManager.getConnection(operatorJdbcUrl());
                PreparedStatement st = c.prepareStatement(sql)) {
            c.setAutoCommit(true);
            st.setString(1, lockName);
            while (System.nanoTime() - deadline < 0) {
                if (st.executeUpdate() > 0) {
                    return System.nanoTime();
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2)); // polling for a free moment, as cleanup does
            }
        }
        return -1;
    }
}
