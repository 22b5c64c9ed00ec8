package io.distlock.spi;

import io.distlock.LeaseModel;
import io.distlock.LockAdmin;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

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
 * <p>What a store offers beyond locks it exposes here: its semaphore operations ({@link #permits()}), its operator
 * view ({@link #admin()}) and how its leases end ({@link #leaseModel()}); {@link #close()} is its close hook.
 */
public interface LockBackend extends AutoCloseable {

    /** Whether leases end by time or with the session. */
    LeaseModel leaseModel();

    /**
     * For a {@link LeaseModel#SESSION} store: how long after a client goes silent the store ends its session, and
     * so its leases; null for time-bound stores.
     */
    default Duration sessionTimeout() {
        return null;
    }

    /** The longest lock name, in characters, this store accepts. */
    int maxNameLength();

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
     * Whether this store can pass a held lock straight to another holder in one atomic operation
     * ({@link #handOver}). The core then gives a released lock to the next thread of the same store queued for it
     * without freeing it in between: one round trip instead of a release and an acquire.
     */
    default boolean handsOver() {
        return false;
    }

    /**
     * Passes the lock {@code from} holds to a new holder in one atomic store operation: if {@code from}'s owner token
     * still holds it, sets a new owner token, the lease time {@code leaseTime} and a new fencing token, strictly
     * greater than every one granted before for the name (the rule of {@link #acquire}). Nothing is freed in between,
     * so no other client can take the lock meanwhile; waiters elsewhere are not woken. Only called when
     * {@link #handsOver()} is true.
     *
     * @param receiver the thread the lock goes to: the store describes it as the holder (the call itself runs on
     *        the releasing thread)
     * @return the new grant (its issue time may be -1: the core counts from when it sent the call), or null if
     *         {@code from} no longer held the lock (nothing was changed). A store that can tell from the same
     *         operation whether another client waits for the lock says so in {@link Grant#othersWaiting()}: while
     *         nobody else waits, the core keeps handing the lock over without bound and never pauses for others
     * @throws io.distlock.StoreUnavailableException if the store cannot be reached; the backend takes back a hand-over
     *         that may have happened with its answer lost, as for an acquire
     * @throws io.distlock.LockException if the store refused the hand-over and changed nothing (a fencing token that
     *         cannot grow): the core then frees the lock with {@link #release}, and the receiver acquires on its own
     */
    default Grant handOver(Grant from, Duration leaseTime, Thread receiver) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " does not hand locks over");
    }

    /**
     * Frees the lock {@code grant} holds for other clients at the end of a streak of {@linkplain #handOver
     * hand-overs}, while a thread of this client queues to take it next, after a
     * {@linkplain #acquireAfterCourtesy courtesy}. As {@link #release}, except that a store whose releases wake other
     * clients only when one registered as waiting (Redis' waiting marker) keeps that registration for the returning
     * thread, so that the other client's next release wakes it, and wakes no waiter of this client itself. By
     * default a plain {@link #release}.
     *
     * @return as {@link #release}
     */
    default boolean releaseForOthers(Grant grant) {
        return release(grant);
    }

    /**
     * {@link #acquire} by the thread of this client that follows a {@linkplain #releaseForOthers release for others},
     * after it has given other clients up to {@code courtesyNanos} (cut to {@code wait}) to take the lock first. By
     * default it waits the courtesy out; a store that hears of releases ({@link PollingLockBackend}) ends it at the
     * first release of the name it hears of, since another client has had its turn by then.
     *
     * @throws InterruptedException if interrupted meanwhile; the backend leaves nothing behind in the store
     * @throws io.distlock.StoreUnavailableException if the store cannot be reached
     */
    default Grant acquireAfterCourtesy(String name, Duration leaseTime, Wait wait, long courtesyNanos)
            throws InterruptedException {
        long end = System.nanoTime() + wait.cap(courtesyNanos);
        while (end - System.nanoTime() > 0) {
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while giving another client its turn at lock '" + name
                        + "'");
            }
            LockSupport.parkNanos(this, end - System.nanoTime());
        }
        return acquire(name, leaseTime, wait.now());
    }

    /**
     * Renews the given leases, ideally in a few round trips whatever their number.
     *
     * @return the grants that are no longer held (their renewal failed because the store no longer has them)
     * @throws io.distlock.StoreUnavailableException if the store cannot be reached; the core retries
     */
    Set<Grant> renew(List<Renewal> renewals);

    /**
     * The semaphore operations of this store, or null if it has none. By default this backend itself when it
     * implements {@link PermitBackend}.
     */
    default PermitBackend permits() {
        return this instanceof PermitBackend p ? p : null;
    }

    /** Operator access to held locks, or null if this store has none. */
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
