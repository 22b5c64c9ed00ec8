package io.distlock.spi;

import io.distlock.LockAdmin;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * The store operations a backend writes; everything else (reentrancy, renewal scheduling, lost-lease signals,
 * argument checks, local queuing and the {@link java.util.concurrent.locks.Lock} view) is done once for every
 * store by {@link io.distlock.core.BackendLockStore}. Each operation is atomic in the store and compares the
 * grant's owner token; none checks then acts across round trips.
 *
 * <p>The core calls {@link #acquire} for a name from at most one thread of a store at a time, so a backend sees no
 * local contention on one name. A backend that only offers a single atomic attempt extends
 * {@link PollingLockBackend}.
 *
 * <p>What a store offers beyond locks: its terms ({@link #terms()}: lease model, session timeout, longest name), its
 * semaphore operations ({@link #permits()}) and its operator view ({@link #admin()}); a store that passes a held
 * lock to a new holder in one step implements {@link HandOvers} as well. {@link #close()} is its close hook.
 * {@code LockBackendSizeTest} keeps this interface at nine methods: a new ability is a capability of its own.
 */
public interface LockBackend extends AutoCloseable {

    /**
     * The terms this store offers locks on; read at each use (a session-bound store's session timeout may change
     * with a new session).
     */
    Terms terms();

    /** Called once by the core before any other call, to receive connection events. */
    default void attach(LeaseEvents events) {
    }

    /**
     * Takes the lock named {@code name} for {@code leaseTime}, waiting as long as {@code wait} allows (a single
     * attempt, until a deadline, or without limit).
     *
     * @return the grant, or null if the lock was not free in time
     * @throws InterruptedException if interrupted while waiting; the backend leaves nothing behind in the store
     * @throws io.distlock.StoreUnavailableException if the store cannot be reached
     */
    Grant acquire(String name, Duration leaseTime, Wait wait) throws InterruptedException;

    /**
     * Releases the lock if {@code grant} still holds it (compare-and-delete on the owner token).
     *
     * @return false if the grant no longer held the lock (expired, taken over, or deleted)
     */
    boolean release(Grant grant);

    /**
     * Renews the given leases, ideally in a few round trips whatever their number.
     *
     * @return the grants that are no longer held (their renewal failed because the store no longer has them)
     * @throws io.distlock.StoreUnavailableException if the store cannot be reached; the core retries
     */
    Set<Grant> renew(List<Renewal> renewals);

    /**
     * The semaphore operations of this store, or null (the default) if it has none; read once, when the core's store
     * is built. A backend that implements {@link PermitBackend} itself returns itself.
     */
    default PermitBackend permits() {
        return null;
    }

    /** Operator access to held locks, or null (the default) if this store has none. */
    default LockAdmin admin() {
        return null;
    }

    /**
     * The core's store begins to close: wake the acquisitions waiting in this backend (locks and permits), so that they
     * look at their {@link Wait}, {@linkplain Wait#stopped() stopped} by now, and return null at once. Connections and
     * threads must stay usable: the core still releases what the acquisitions in flight were granted, and calls
     * {@link #close()} after that. By default nothing: a backend that looks at its wait between attempts then stops
     * within one poll.
     */
    default void closing() {
    }

    /** Closes connections and threads. Waiters inside {@link #acquire} fail. */
    @Override
    void close();
}
