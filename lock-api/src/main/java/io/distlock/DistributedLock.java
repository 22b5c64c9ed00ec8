package io.distlock;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.Lock;

/**
 * A named lock in a {@link LockStore}. Acquiring it yields a {@link Lease}; the lease, not the thread, is the proof
 * of ownership and can be released from any thread.
 *
 * <p>Reentrancy is per thread and per store: a thread that already holds this lock through the same store gets a
 * nested lease with the same fencing token, and the lock is freed when the outermost lease is released. A nested
 * acquisition must use the same {@link LockOptions} as the outer one (it shares that lease), else it is refused with
 * {@link IllegalArgumentException}.
 */
public interface DistributedLock {

    /** The lock's name, as given to {@link LockStore#lock(String)}. */
    String name();

    /** The options leases of this lock are taken with. */
    LockOptions options();

    /**
     * Waits as long as it takes for the lock.
     *
     * @throws InterruptedException if the thread is interrupted while waiting; nothing is left behind in the store
     * @throws StoreUnavailableException if the store cannot be reached
     */
    Lease acquire() throws InterruptedException;

    /**
     * One attempt that never waits: a lease if the lock was free (or already held by this thread), else empty.
     *
     * @throws StoreUnavailableException if the store cannot be reached (never reported as "not acquired")
     */
    Optional<Lease> tryAcquire();

    /**
     * Waits at most {@code maxWait} for the lock.
     *
     * @return the lease, or empty if the lock was not free within {@code maxWait}
     * @throws IllegalArgumentException if {@code maxWait} is negative
     * @throws InterruptedException if the thread is interrupted while waiting; nothing is left behind in the store
     * @throws StoreUnavailableException if the store cannot be reached
     */
    Optional<Lease> tryAcquire(Duration maxWait) throws InterruptedException;

    /**
     * A {@link java.util.concurrent.locks.Lock} view for code written against the JDK interface. It is reentrant per
     * thread; {@code unlock()} from a thread that does not hold it throws {@link IllegalMonitorStateException};
     * {@code newCondition()} is not supported. Fencing tokens and lost-lease signals need the {@link Lease} API.
     */
    Lock asLock();
}
