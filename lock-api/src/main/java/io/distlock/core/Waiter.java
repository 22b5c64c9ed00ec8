package io.distlock.core;

import io.distlock.LockOptions;
import io.distlock.spi.Grant;
import io.distlock.spi.Wait;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * One thread queued at a {@link NameState}'s gate, with the options it asked for and the outcome it leaves with. A
 * waiter that times out or is interrupted cancels with the same compare-and-set as a pass or a hand-over's claim, so
 * exactly one of them wins.
 */
final class Waiter {

    private static final int WAITING = 0;
    private static final int CLAIMED = 1;
    private static final int PASSED = 2;
    private static final int CANCELLED = 3;

    final LockOptions options;
    private final Thread thread;
    private final AtomicInteger state;
    private volatile HandOff handOff;
    /** Written before the waiter is passed (the state's write publishes it); 0 for no courtesy. */
    private long courtesyNanos;

    Waiter(LockOptions options, Thread thread) {
        this.options = options;
        this.thread = thread;
        this.state = new AtomicInteger(WAITING);
    }

    /**
     * The outcome of every pass of a free gate: through at once, with no store lock handed over and no courtesy to
     * wait. One shared instance, as nothing of it is read or changed for a waiter that never queued.
     */
    static final Waiter PASSED_AT_ONCE = new Waiter(null, null);

    static {
        PASSED_AT_ONCE.state.set(PASSED);
    }

    /**
     * A store lock handed over to a waiter: the grant, when its request was sent, and the store's session epoch read
     * before it was sent (a session lost since then loses the grant at registration).
     */
    record HandOff(Grant grant, long sentAtNanos, long sessionEpoch) {
        /** A hand-over sent while the store had reported no lost session. */
        HandOff(Grant grant, long sentAtNanos) {
            this(grant, sentAtNanos, 0);
        }
    }

    /**
     * Waits, queued, until passed or claimed, or until {@code wait} ends or the thread is interrupted. A claimed
     * waiter waits on for its outcome (a hand-over's store lock must not be left behind), keeping a late interrupt
     * in its flag.
     *
     * @return true if passed; false if it gave up (the caller takes it off the queue)
     * @throws InterruptedException if interrupted while nothing had passed or claimed it yet
     */
    boolean await(Wait wait) throws InterruptedException {
        boolean interrupted = false;
        while (state.get() == WAITING) {
            if (Thread.interrupted()) {
                interrupted = true;
                break;
            }
            if (wait.isForever()) {
                LockSupport.park(this);
            } else {
                long left = wait.remainingNanos();
                if (left <= 0) {
                    break;
                }
                LockSupport.parkNanos(this, left);
            }
        }
        if (state.compareAndSet(WAITING, CANCELLED)) {
            if (interrupted) {
                throw new InterruptedException("interrupted while queued for a lock");
            }
            return false;
        }
        while (state.get() != PASSED) {
            LockSupport.park(this);
            if (Thread.interrupted()) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt(); // through the gate (and maybe with a store lock): the flag stays
        }
        return true;
    }

    /** Lets this waiter through with {@code courtesy} to wait first; false if it had given up. */
    boolean pass(long courtesy) {
        courtesyNanos = courtesy; // before the state's write, which publishes it (unused if cancelled)
        if (state.compareAndSet(WAITING, PASSED)) {
            LockSupport.unpark(thread);
            return true;
        }
        return false;
    }

    /** Claims this waiter for a hand-over; false if it had given up. */
    boolean claim() {
        return state.compareAndSet(WAITING, CLAIMED);
    }

    /** Gives a claimed waiter its outcome (a hand-over, or null: contend yourself) and wakes it. */
    void receive(HandOff outcome) {
        handOff = outcome;
        state.set(PASSED);
        LockSupport.unpark(thread);
    }

    /** The queued thread: a hand-over takes the store lock on its behalf. */
    Thread thread() {
        return thread;
    }

    /** The store lock handed over with the place, or null: the waiter then contends in the store itself. */
    HandOff handOff() {
        return handOff;
    }

    /**
     * The courtesy this waiter was let through with, 0 for none: after a streak of hand-overs it gives another
     * client's woken waiter that long to take the freed lock first ({@link io.distlock.spi.HandOvers#acquireAfterCourtesy}).
     */
    long courtesyNanos() {
        return courtesyNanos;
    }
}
