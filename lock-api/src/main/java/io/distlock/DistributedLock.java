package io.distlock;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.Lock;

/**
 * A named lock in a {@link LockStore}. Acquiring it yields a {@link Lease}; the lease, not the thread, is the proof
 * of ownership and can be released from any thread.
 *
 * <p>Reentrancy is per thread and per store: a thread that already holds this lock through the same store gets a
 * nested lease with the same fencing token, and the lock is freed when the outermost lease is released. A nested
 * acquisition must use the same {@link LockOptions} as the outer one (it shares that lease), else it is refused with
 * {@link IllegalArgumentException}. It checks in the store that the outer lease is still held, in one round trip (on
 * time-bound stores a renewal for the lease's current lease time, on session-bound ones a check of the holder's
 * node), never from local state alone: after an operator's force-release or a takeover the outer lease is lost, and
 * the acquisition is then a new one that waits for the lock like any other (its lease has a new fencing token, and
 * the outer lease's release reports the loss).
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
     * Runs {@code task} if the lock is free now (one attempt, like {@link #tryAcquire()}), then releases it; if the
     * lock is held elsewhere the task is not run and the result is empty. This is the "skip if another service is
     * already doing it" of scheduled jobs. The lease is renewed while the task runs (per {@link #options()}), so a
     * task longer than the lease time keeps the lock; a lease lost meanwhile tells its
     * {@linkplain Lease#onLost lost-listeners} at once, as usual. A thread that already holds this lock runs the
     * task under a nested lease.
     *
     * @return the task's result; empty if the task was not run, or if it returned null (use
     *         {@link #runIfFree(Duration, LeaseAction)} to tell the two apart)
     * @throws LockLostException if the task completed but the lease had been lost while it ran: the work may have
     *         overlapped with another holder's, so its result is not returned
     * @throws StoreUnavailableException if the store cannot be reached (never reported as "not run because held"):
     *         either the attempt failed and the task was not run, or the task ran and its release could not reach the
     *         store (the lock then frees itself when its lease runs out)
     * @throws Exception whatever the task threw, after the lease was released; a loss or failure found at release
     *         is added to it as suppressed
     */
    default <T> Optional<T> tryRun(LeaseTask<T> task) throws Exception {
        return tryRun(Duration.ZERO, task);
    }

    /**
     * As {@link #tryRun(LeaseTask)}, but the lock is freed with {@link Lease#releaseAfter(Duration)}: it stays
     * taken until {@code minHeld} has passed since it was acquired, so services whose timers fire a little later
     * for the same period skip it (ShedLock's {@code lockAtLeastFor}). {@code Duration.ZERO} is a plain release.
     *
     * @throws IllegalArgumentException if {@code minHeld} is negative
     * @throws NullPointerException if {@code minHeld} or {@code task} is null
     */
    default <T> Optional<T> tryRun(Duration minHeld, LeaseTask<T> task) throws Exception {
        Arguments.requireNonNegative(minHeld, "minHeld");
        Objects.requireNonNull(task, "task must not be null");
        Optional<Lease> taken = tryAcquire();
        if (taken.isEmpty()) {
            return Optional.empty();
        }
        Lease lease = taken.get();
        T result;
        try {
            result = task.run(lease);
        } catch (Throwable failure) {
            try {
                lease.releaseAfter(minHeld);
            } catch (RuntimeException atRelease) {
                failure.addSuppressed(atRelease);
            }
            throw failure;
        }
        lease.releaseAfter(minHeld);
        return Optional.ofNullable(result);
    }

    /**
     * As {@link #tryRun(Duration, LeaseTask)} for work that returns nothing, telling "skipped" from "ran": true if
     * {@code action} ran under the lock, false if the lock was held elsewhere and it did not run.
     *
     * @throws IllegalArgumentException if {@code minHeld} is negative
     * @throws NullPointerException if {@code minHeld} or {@code action} is null
     * @throws LockLostException if the action completed but the lease had been lost while it ran
     * @throws StoreUnavailableException if the store cannot be reached (never reported as "skipped")
     * @throws Exception whatever the action threw, after the lease was released
     */
    default boolean runIfFree(Duration minHeld, LeaseAction action) throws Exception {
        Objects.requireNonNull(action, "action must not be null");
        return tryRun(minHeld, lease -> {
            action.run(lease);
            return Boolean.TRUE;
        }).isPresent();
    }

    /**
     * A {@link java.util.concurrent.locks.Lock} view for code written against the JDK interface. It is reentrant per
     * thread; {@code unlock()} from a thread that does not hold it throws {@link IllegalMonitorStateException};
     * {@code newCondition()} is not supported. Fencing tokens and lost-lease signals need the {@link Lease} API.
     */
    Lock asLock();
}
