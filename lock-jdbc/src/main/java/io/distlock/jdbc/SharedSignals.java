package io.distlock.jdbc;

import io.distlock.spi.ReleaseSignals;
import java.util.HashMap;
import java.util.Map;

/**
 * Release signals shared by every store of this JVM that opens the same database table, so that a release through
 * one store wakes the waiters of another at once instead of at their next poll. Keyed by the credential-free
 * description of the database and the table name; a table's signals are dropped when its last store closes, so a
 * process that opens stores on ever new tables keeps only those open. Locks and semaphores have signals of their
 * own: their names are independent, and a lock may bear any name a semaphore does.
 */
final class SharedSignals {

    /** The signals of each table with an open store, and how many stores use them; guarded by itself. */
    private static final Map<String, Shared> BY_TABLE = new HashMap<>();

    private SharedSignals() {
    }

    /** The release signals of one table: of its locks, and of its semaphores (kept apart). */
    record Table(ReleaseSignals locks, ReleaseSignals permits) {

        /** Fresh signals, shared with nobody. */
        static Table unshared() {
            return new Table(new ReleaseSignals(), new ReleaseSignals());
        }
    }

    /** One table's signals and their users. */
    private static final class Shared {
        final Table signals = Table.unshared();
        int users;
    }

    /** The signals for {@code table} of the database described by {@code redactedUrl}; pair with {@link #close}. */
    static Table open(String redactedUrl, String table) {
        synchronized (BY_TABLE) {
            Shared shared = BY_TABLE.computeIfAbsent(key(redactedUrl, table), k -> new Shared());
            shared.users++;
            return shared.signals;
        }
    }

    /** A store that {@link #open opened} the signals of {@code table} closed: the last one drops them. */
    static void close(String redactedUrl, String table) {
        synchronized (BY_TABLE) {
            String key = key(redactedUrl, table);
            Shared shared = BY_TABLE.get(key);
            if (shared != null && --shared.users <= 0) {
                BY_TABLE.remove(key);
            }
        }
    }

    /**
     * The lock signals of {@code table} while a store has them open, else null (not counted as a user): for tests.
     */
    static ReleaseSignals peek(String redactedUrl, String table) {
        synchronized (BY_TABLE) {
            Shared shared = BY_TABLE.get(key(redactedUrl, table));
            return shared == null ? null : shared.signals.locks();
        }
    }

    /** How many tables have shared signals now: for tests. */
    static int tables() {
        synchronized (BY_TABLE) {
            return BY_TABLE.size();
        }
    }

    private static String key(String redactedUrl, String table) {
        return redactedUrl + "#" + table;
    }
}
