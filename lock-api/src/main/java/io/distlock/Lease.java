package io.distlock;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * Proof of ownership of a lock, with a fencing token. Release it when done, from any thread, preferably with
 * try-with-resources.
 *
 * <p>A lease is time-bounded ({@link LockOptions#leaseTime()}) and, by default, renewed in the background while
 * held. If it cannot be renewed, or the store's session behind it ends, it becomes invalid, its
 * {@linkplain #onLost lost-listeners} are told at once, and {@link #release()} reports {@link LockLostException}.
 */
public interface Lease extends AutoCloseable {

    /** The name of the lock this lease holds. */
    String lockName();

    /**
     * A number greater than zero that strictly increases across successive holders of one lock name, on every
     * store. Pass it to the resource you write to; a resource that refuses tokens lower than the highest it has
     * seen is safe against a paused holder whose lease ran out. Nested (reentrant) leases share their outer
     * lease's token.
     */
    long fencingToken();

    /** True while the lease is held for sure: false once released, expired or lost, or while uncertain. */
    boolean isValid();

    /** Where the lease stands now; {@link LeaseState#UNCERTAIN} means the connection to the store is interrupted. */
    LeaseState state();

    /**
     * Renews the lease now for {@code leaseTime} from now (and keeps that lease time for later renewals), in one round
     * trip to the store, ordered with the background renewal of the same lease. On stores whose leases are bound to
     * a session it checks in the store, in one round trip, that the lease is still held (the session keeps it).
     *
     * @return false if the lease is no longer held
     * @throws IllegalArgumentException if {@code leaseTime} is not positive or over {@link LockOptions#MAX_LEASE_TIME}
     *         (the store is not asked)
     * @throws StoreUnavailableException if the store cannot be reached
     */
    boolean extend(Duration leaseTime);

    /**
     * Registers a listener told, once, when this lease is lost while held (expired without renewal, session lost,
     * removed behind its back, or its store closed). A listener added after the loss is called at once. Listeners
     * run on a distlock thread and must not block.
     */
    void onLost(Consumer<? super LockLostException> listener);

    /**
     * Releases the lease. Idempotent: a second call does nothing.
     *
     * @throws LockLostException if the lease had been lost before this release: the critical section it guarded
     *         may have overlapped with another holder's
     * @throws StoreUnavailableException if the store could not be told; the lock then frees itself when its lease
     *         time runs out (or its session ends)
     */
    void release();

    /**
     * Releases the lease, but the lock stays taken (no longer renewed) until {@code minHeld} has passed since it was
     * acquired (counted from when the acquisition returned to this client), then frees: ShedLock's
     * {@code lockAtLeastFor}, so services whose timers fire slightly later skip the same period. Returns at once:
     * after one round trip at most (waiting first for a background renewal of this lease already in flight, so the
     * new expiry lands last).
     *
     * <p>When the time has passed a distlock thread releases the lock as {@link #release()} does (only if it is still
     * this lease's), so waiters elsewhere are woken then, not when the lease time they were refused under runs out.
     * On time-bound stores the store's expiry is also set to the time left plus 1 s, in the one round trip: if this
     * process dies or its store is closed first, the lock frees itself then. On session-bound stores (ZooKeeper) the
     * session ends with the process or the store and frees it earlier. With no time left (or {@code Duration.ZERO})
     * this is {@link #release()}. A nested (reentrant) lease does not free the lock, so on it this is
     * {@link #release()} as well: only the release that frees the lock is delayed, counted from the outermost
     * acquisition.
     *
     * @throws IllegalArgumentException if {@code minHeld} is negative
     * @throws LockLostException if the lease had been lost before (as {@link #release()})
     * @throws StoreUnavailableException if the store could not be told; the lock then frees itself when its current
     *         lease time runs out (or its session ends), which may be before {@code minHeld}
     */
    void releaseAfter(Duration minHeld);

    /** Same as {@link #release()}. */
    @Override
    void close();
}
