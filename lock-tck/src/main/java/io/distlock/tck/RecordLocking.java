package io.distlock.tck;

/**
 * An operator's hand that keeps the store's record of a lock name locked by a transaction of its own (SQL: a
 * {@code SELECT ... FOR UPDATE} in an open transaction), for the rules of §24: a client's statement on that record
 * then waits in the store, past the client's own timeout. Supplied by a backend's kit subclass whose store has such
 * locks; null skips those rules.
 */
public interface RecordLocking {

    /**
     * Locks the record of lock {@code name} (which exists: the kit has acquired and released the name before) and
     * keeps it locked until the returned handle is closed; closing ends that transaction without changing anything.
     */
    AutoCloseable lockRecord(String name) throws Exception;
}
