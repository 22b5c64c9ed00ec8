package io.distlock.spi;

import io.distlock.Arguments;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * A backend that can pass a held lock straight to another holder in one atomic store operation: it implements this
 * as well as {@link LockBackend}, and the core, seeing it, gives a released lock to the next thread of the same store
 * queued for it without freeing it in between: one round trip instead of a release and an acquire. After a streak
 * of hand-overs the core frees the lock for other clients ({@link #releaseForOthers}) and the next local thread
 * acquires after a courtesy ({@link #acquireAfterCourtesy}).
 */
public interface HandOvers extends LockBackend {

    /**
     * Passes the lock {@code from} holds to a new holder in one atomic store operation: if {@code from}'s owner token
     * still holds it, sets a new owner token, the lease time {@code leaseTime} and a new fencing token, strictly
     * greater than every one granted before for the name (the rule of {@link #acquire}). Nothing is freed in between,
     * so no other client can take the lock meanwhile; waiters elsewhere are not woken.
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
    Grant handOver(Grant from, Duration leaseTime, Thread receiver);

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
                throw new InterruptedException("interrupted while giving another client its turn at lock "
                        + Arguments.quoted(name));
            }
            LockSupport.parkNanos(this, end - System.nanoTime());
        }
        return acquire(name, leaseTime, wait.now());
    }
}
