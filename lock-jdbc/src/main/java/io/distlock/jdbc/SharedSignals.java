package io.distlock.jdbc;

import io.distlock.spi.ReleaseSignals;
import java.util.HashMap;
import java.util.Map;

/**
 * Release signals shared by every store of this JVM that opens the same database table, so that a release through
 * one store wakes the waiters of another at once instead of at their next poll. Keyed by the credential-free
 * description of the database and the table name; a table's signals are dropped when its last store closes, so a
 * process that opens stores on ever new tables keeps only those open.
 */
final class SharedSignals {

    /** The signals of each table with an open store, and how many stores use them; guarded by itself. */
    private static final Map<String, Shared> BY_TABLE = new HashMap<>();

    private SharedSignals() {
    }

    /** One table's signals and their users. */
    private static final class Shared {
        final ReleaseSignals signals = new ReleaseSignals();
        int users;
    }

    /** The signals for {@code table} of the database described by {@code redactedUrl}; pair with {@link #close}. */
    static ReleaseSignals open(String redactedUrl, String table) {
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

    /** The signals of {@code table} while a store has them open, else null (not counted as a user): for tests. */
    static ReleaseSignals peek(String redactedUrl, String table) {
        synchronized (BY_TABLE) {
            Shared shared = BY_TABLE.get(key(redactedUrl, table));
            return shared == null ? null : shared.signals;
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
