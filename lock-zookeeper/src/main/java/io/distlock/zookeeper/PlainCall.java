package io.distlock.zookeeper;

import java.util.concurrent.CountDownLatch;

/**
 * A request sent straight on the ZooKeeper handle, without Curator, whose caller waits for its one answer until a
 * deadline or until the store's close cancels the wait. The handle sends nothing again: what a lost connection or
 * session does to the request is for the caller to handle. Subclasses are the handle's callbacks: they keep what the
 * answer says, then call {@link #answered()}.
 */
abstract class PlainCall implements Cancellable {

    private final CountDownLatch done = new CountDownLatch(1);
    private volatile boolean answered;

    /** Marks the call answered and ends the wait; call it after keeping what the answer says. */
    protected final void answered() {
        this.answered = true;
        done.countDown();
    }

    /**
     * Waits for the answer until {@code deadlineNanos} (a {@link System#nanoTime()}); false if none came (the wait ran
     * out or was cancelled).
     *
     * @param interruptible whether the caller's interrupt ends the wait; if not, the interrupt is kept for the caller
     * @throws InterruptedException if interruptible and interrupted
     */
    final boolean await(long deadlineNanos, boolean interruptible) throws InterruptedException {
        LatchWait.await(done, deadlineNanos, interruptible);
        return answered;
    }

    @Override
    public final void cancel() {
        done.countDown();
    }
}
