package io.distlock.jdbc;

import io.distlock.StoreUnavailableException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Lets one store of this JVM at a time probe and create a given table of a database. H2 2.3 breaks when one session
 * creates a table while another creates or reads it: a {@code ConcurrentModificationException} from H2's own code, or
 * an in-memory database closed under the reader (DEFECTS S67). Other processes' creates still race; the installers
 * take a create that lost to another as done. One turn per table of a database, kept only while a store asks for it
 * or holds it: a creation the database blocks (up to the socket timeout) holds up the stores of that table only, never
 * those of another table that shared a stripe with it (DEFECTS S72), and opening stores on ever new tables keeps none.
 */
final class SchemaChanges {

    /**
     * Who holds a turn another caller waits for, as its failures say: another thread, of this store or of another
     * store of the JVM (two stores may share a URL, so the two are not told apart).
     */
    private static final String HOLDER = "another thread of this process (of this store or another)";

    /** The turns asked for or held, by database URL and table; a lock key only, never shown. */
    private static final ConcurrentHashMap<String, Turn> TURNS = new ConcurrentHashMap<>();

    /** One table's turn and how many stores ask for it or hold it (changed only inside the map's compute). */
    private static final class Turn {
        final ReentrantLock lock = new ReentrantLock();
        int users;
    }

    private SchemaChanges() {
    }

    /**
     * Runs {@code change} on {@code c} while no other thread of this JVM (of any store) runs one for {@code table} of
     * the same database. Waits for that at most {@code boundMillis}, then fails with {@link
     * StoreUnavailableException} naming {@code store}; an interrupt of that wait, or one pending as it is called,
     * raises {@link WaitInterrupted} saying which. Neither is an {@link SQLException}: the wait failed, not the
     * connection, so the connection's wrapper neither reports an outage nor evicts it.
     */
    static <T> T alone(Connection c, String table, String store, long boundMillis, JdbcBackend.SqlWork<T> change)
            throws SQLException {
        String key = c.getMetaData().getURL() + '\u0000' + table; // a lock key only: never shown
        Turn turn = TURNS.compute(key, (k, t) -> {
            Turn used = t == null ? new Turn() : t;
            used.users++;
            return used;
        });
        try {
            if (Thread.interrupted()) { // before any wait: no other store is to blame
                throw new WaitInterrupted("the thread was interrupted before the store checked table " + table,
                        new InterruptedException("interrupted before checking table " + table));
            }
            try {
                // the timed wait only when the turn is taken: an interrupt there came while another thread held it
                // (of another store, or of this one: a semaphore's first uses on two threads), so neither is blamed
                if (!turn.lock.tryLock() && !turn.lock.tryLock(boundMillis, TimeUnit.MILLISECONDS)) {
                    throw new StoreUnavailableException("store " + store + ": " + HOLDER + " has been checking or"
                            + " creating table " + table + " for more than " + boundMillis + " ms");
                }
            } catch (InterruptedException e) {
                throw new WaitInterrupted(HOLDER + " was checking or creating table " + table, e);
            }
            try {
                return change.run(c);
            } finally {
                turn.lock.unlock();
            }
        } finally {
            TURNS.computeIfPresent(key, (k, t) -> --t.users == 0 ? null : t);
        }
    }

    /** How many tables have a turn kept: for tests. */
    static int turnsKept() {
        return TURNS.size();
    }
}
