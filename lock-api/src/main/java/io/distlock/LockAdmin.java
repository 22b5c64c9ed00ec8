package io.distlock;

import java.util.List;

/**
 * Operator access to a store's locks: list the held ones (and held semaphore permits), break a stuck one. Used by
 * {@code distlock inspect} and {@code distlock release --force}.
 */
public interface LockAdmin {

    /**
     * The locks held now whose names start with {@code prefix} (empty: all), sorted by name, at most {@code limit}.
     */
    List<LockInfo> list(String prefix, int limit);

    /**
     * The semaphore permits held now whose semaphore names start with {@code prefix} (empty: all), one entry per
     * permit (name: the semaphore's, fencing token: the permit's, owner: the holder's description, never its owner
     * token), sorted by name then token, at most {@code limit}.
     *
     * @throws UnsupportedOperationException if this store's admin view does not list permits
     */
    default List<LockInfo> listPermits(String prefix, int limit) {
        throw new UnsupportedOperationException("this store's admin view does not list semaphore permits");
    }

    /**
     * Whether {@link #listPermits} lists permits (it throws otherwise); a view that implements it says so here, and
     * {@link LockStore#features()} reports it.
     */
    default boolean listsPermits() {
        return false;
    }

    /**
     * Deletes the lock named {@code name} whoever holds it. Its holder finds out at its next renewal (time-bound
     * stores), through the store's watch (session-bound stores), or at the latest at release, through
     * {@link io.distlock.LockLostException}. Fencing tokens keep increasing afterwards.
     *
     * @return false if no one held it
     * @see #forceRelease(String, long) the form that breaks only the holder the operator saw
     */
    boolean forceRelease(String name);

    /**
     * Deletes the lock named {@code name} only if it is still held under {@code fencingToken}: the holder an operator
     * saw in {@link #list} and confirmed. The comparison and the delete are one atomic step in the store (a Lua
     * compare-and-delete, {@code UPDATE ... WHERE name = ? AND fence = ?}, a ZooKeeper delete of the holder's node
     * in one transaction with a check that the token stamped into its parent is unchanged), so a lock that changed
     * hands after it was listed is left to its new holder. The holder that is broken finds out as with
     * {@link #forceRelease(String)}.
     *
     * @return true if the lock was held under {@code fencingToken} and is released; false if it is free, or held now
     *         under another fencing token (nothing was changed)
     * @throws UnsupportedOperationException if this store's admin view cannot compare the holder atomically
     */
    default boolean forceRelease(String name, long fencingToken) {
        throw new UnsupportedOperationException("this store's admin view cannot force-release a lock only if it is"
                + " still held under a given fencing token");
    }
}
