package io.distlock.zookeeper;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * A request sent straight on the ZooKeeper handle, without Curator, whose caller waits for its one answer until a
 * deadline or until the store's close cancels the wait. The handle sends nothing again: what a lost connection or
 * session does to the request is for the caller to handle. Subclasses are the handle's callbacks: they keep what the
 * answer says, then call {@link #answered()}. An answer that comes after the caller gave up (the wait ran out, was
 * interrupted or cancelled) goes to {@link #late()} instead, as {@link BoundedCall} hands Curator's to its clean-up.
 */
abstract class PlainCall implements Cancellable {

    private static final int WAITING = 0;
    private static final int ANSWERED = 1;
    private static final int ABANDONED = 2;
    /** {@link #state}'s atomic operations, on the field itself: no atomic object per call. */
    private static final AtomicIntegerFieldUpdater<PlainCall> STATE =
            AtomicIntegerFieldUpdater.newUpdater(PlainCall.class, "state");

    /** WAITING until the answer came (ANSWERED) or the caller gave up (ABANDONED); set once. */
    private volatile int state;
    private final CountDownLatch done = new CountDownLatch(1);

    /**
     * Marks the call answered and ends the wait; call it after keeping what the answer says (the change of state
     * publishes it to the waiter). If the caller gave up already, the answer goes to {@link #late()}.
     */
    protected final void answered() {
        if (STATE.compareAndSet(this, WAITING, ANSWERED)) {
            done.countDown();
        } else {
            late();
        }
    }

    /**
     * Cleans up after an answer nobody waits for any more, once: by default nothing. Called on the ZooKeeper client's
     * event thread or the caller's: must not block.
     */
    protected void late() {
    }

    /**
     * Waits for the answer until {@code deadlineNanos} (a {@link System#nanoTime()}); false if none came (the wait ran
     * out or was cancelled), in which case an answer still to come goes to {@link #late()}.
     *
     * @param interruptible whether the caller's interrupt ends the wait; if not, the interrupt is kept for the caller
     * @throws InterruptedException if interruptible and interrupted; the answer, come or to come, goes to {@link
     *     #late()}
     */
    final boolean await(long deadlineNanos, boolean interruptible) throws InterruptedException {
        try {
            LatchWait.await(done, deadlineNanos, interruptible);
        } catch (InterruptedException e) {
            if (STATE.getAndSet(this, ABANDONED) == ANSWERED) {
                late();
            }
            throw e;
        }
        return !STATE.compareAndSet(this, WAITING, ABANDONED) && state == ANSWERED;
    }

    /**
     * Waits for the answer as {@link #await} does, but gives nothing up when the wait ends without it: a later {@link
     * #await} still takes an answer that comes after this wait. For a caller that waits for another answer first.
     *
     * @throws InterruptedException if interruptible and interrupted
     */
    final void awaitWithoutGivingUp(long deadlineNanos, boolean interruptible) throws InterruptedException {
        LatchWait.await(done, deadlineNanos, interruptible);
    }

    /** Ends the wait now without an answer (the store is closing); an answer still to come goes to {@link #late()}. */
    @Override
    public final void cancel() {
        if (STATE.compareAndSet(this, WAITING, ABANDONED)) {
            done.countDown();
        }
    }
}
