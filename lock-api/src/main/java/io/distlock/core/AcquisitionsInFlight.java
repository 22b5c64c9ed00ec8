package io.distlock.core;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The acquisitions of a store between their store call and the end of their registration (locks, permits and
 * hand-overs), so that {@link BackendLockStore#close()} can wait for them before it closes the backend: an acquisition
 * the store granted while the close ran then finds the store closed and releases its grant through connections that
 * are still open, instead of leaving it held for its whole lease by nobody (the grant of a call cut off by the backend
 * closing is lost with its answer).
 *
 * <p>One atomic counter: {@link #enter} and {@link #exit} cost a compare-and-set each; the lock and condition are
 * only used by a close that has to wait (a {@link ReentrantLock}, so a virtual thread waiting in close does not pin).
 */
final class AcquisitionsInFlight {

    /** Set in {@link #state} once closing: no acquisition enters any more. */
    private static final long CLOSING = 1L << 62;

    /** The count of acquisitions in flight, plus {@link #CLOSING} once closing. */
    private final AtomicLong state = new AtomicLong();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition drained = lock.newCondition();

    /** One more acquisition in flight; false (and nothing counted) if the store is closing. Pair with {@link #exit}. */
    boolean enter() {
        while (true) {
            long s = state.get();
            if ((s & CLOSING) != 0) {
                return false;
            }
            if (state.compareAndSet(s, s + 1)) {
                return true;
            }
        }
    }

    /**
     * One more release in flight, counted even while closing (a release must still reach the store, and the close
     * must not close the backend under it). Pair with {@link #exit}.
     */
    void enterRelease() {
        state.incrementAndGet();
    }

    /** An acquisition counted by {@link #enter} (or a release by {@link #enterRelease}) is over, whatever its end. */
    void exit() {
        if (state.decrementAndGet() == CLOSING) {
            lock.lock();
            try {
                drained.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Refuses new acquisitions and waits up to {@code timeout} for those in flight to end, uninterruptibly (an
     * interrupt is kept for the caller).
     *
     * @return the acquisitions still in flight when the wait ended (0 if all ended)
     */
    long closeAndAwait(long timeout, TimeUnit unit) {
        state.getAndAccumulate(CLOSING, (s, closing) -> s | closing);
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        boolean interrupted = false;
        lock.lock();
        try {
            long left;
            while (inFlight() > 0 && (left = deadline - System.nanoTime()) > 0) {
                try {
                    drained.awaitNanos(left);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            return inFlight();
        } finally {
            lock.unlock();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Acquisitions in flight now. */
    long inFlight() {
        return state.get() & ~CLOSING;
    }
}
