package io.distlock.jdbc;

import io.distlock.spi.ReleaseSignals;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Release signals shared by every store of this JVM that opens the same database table, so that a release through
 * one store wakes the waiters of another at once instead of at their next poll. Keyed by the credential-free
 * description of the database and the table name.
 */
final class SharedSignals {

    private static final ConcurrentHashMap<String, ReleaseSignals> BY_TABLE = new ConcurrentHashMap<>();

    private SharedSignals() {
    }

    /** The signals for {@code table} of the database described by {@code redactedUrl}. */
    static ReleaseSignals forTable(String redactedUrl, String table) {
        return BY_TABLE.computeIfAbsent(redactedUrl + "#" + table, k -> new ReleaseSignals());
    }
}
