package io.distlock.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Lets one store of this JVM at a time probe and create a given table of a database. H2 2.3 breaks when one session
 * creates a table while another creates or reads it: a {@code ConcurrentModificationException} from H2's own code, or
 * an in-memory database closed under the reader (DEFECTS S67). Other processes' creates still race; the installers
 * take a create that lost to another as done. The locks are striped, so opening stores on ever new tables keeps none.
 */
final class SchemaChanges {

    private static final ReentrantLock[] STRIPES = new ReentrantLock[64];

    static {
        for (int i = 0; i < STRIPES.length; i++) {
            STRIPES[i] = new ReentrantLock();
        }
    }

    private SchemaChanges() {
    }

    /**
     * Runs {@code change} on {@code c} while no other store of this JVM runs one for {@code table} of the same
     * database; waits for that at most {@code boundMillis}, then fails with a {@link SQLTimeoutException}.
     */
    static <T> T alone(Connection c, String table, long boundMillis, JdbcBackend.SqlWork<T> change)
            throws SQLException {
        String database = c.getMetaData().getURL(); // a lock key only: never shown
        ReentrantLock lock = STRIPES[Math.floorMod((database + '\u0000' + table).hashCode(), STRIPES.length)];
        try {
            if (!lock.tryLock(boundMillis, TimeUnit.MILLISECONDS)) {
                throw new SQLTimeoutException("another store of this process has been creating table " + table
                        + " for more than " + boundMillis + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLTimeoutException("interrupted while another store of this process created table " + table, e);
        }
        try {
            return change.run(c);
        } finally {
            lock.unlock();
        }
    }
}
