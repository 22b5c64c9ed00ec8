package io.distlock.zookeeper;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.api.CuratorEvent;

/**
 * One Curator background operation whose caller waits for the result only until a deadline. The operation itself goes
 * on (Curator retries it) and a result that arrives after the caller left is handed to a clean-up instead: a node
 * created too late is deleted, a watch set too late removed. Waiting on a latch rather than inside the ZooKeeper
 * client's synchronous call also keeps a virtual thread off the client's monitor.
 */
final class BoundedCall implements BackgroundCallback, Cancellable {

    private static final Object ABANDONED = new Object();
    /** A call's late results when they need no clean-up: one for every such call. */
    private static final Consumer<CuratorEvent> NO_CLEANUP = event -> { };
    /** {@link #outcome}'s atomic operations, on the field itself: no AtomicReference per call. */
    private static final VarHandle OUTCOME;

    static {
        try {
            OUTCOME = MethodHandles.lookup().findVarHandle(BoundedCall.class, "outcome", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Null until the event came ({@link CuratorEvent}) or the caller left ({@link #ABANDONED}); set once. */
    @SuppressWarnings("unused") // through OUTCOME
    private volatile Object outcome;
    private final CountDownLatch done = new CountDownLatch(1);
    private final Consumer<CuratorEvent> lateResult;

    /** A call whose late results go to {@code lateResult} (called on a Curator or ZooKeeper thread: must not block). */
    BoundedCall(Consumer<CuratorEvent> lateResult) {
        this.lateResult = lateResult;
    }

    /** A call whose late results need no clean-up. */
    BoundedCall() {
        this(NO_CLEANUP);
    }

    @Override
    public void processResult(CuratorFramework client, CuratorEvent event) {
        if (OUTCOME.compareAndSet(this, null, event)) {
            done.countDown();
        } else {
            lateResult.accept(event);
        }
    }

    /**
     * The operation's result, or null if it did not come by {@code deadlineNanos} (a {@link System#nanoTime()}).
     *
     * @param interruptible whether the caller's interrupt ends the wait; if not, the interrupt is kept for the caller
     * @throws InterruptedException if interruptible and interrupted; the result goes to the clean-up
     */
    CuratorEvent await(long deadlineNanos, boolean interruptible) throws InterruptedException {
        try {
            LatchWait.await(done, deadlineNanos, interruptible);
        } catch (InterruptedException e) {
            abandon();
            throw e;
        }
        if (OUTCOME.compareAndSet(this, null, ABANDONED)) {
            return null;
        }
        return outcome instanceof CuratorEvent event ? event : null;
    }

    /** Ends the wait now without a result (the store is closing); a result still to come goes to the clean-up. */
    @Override
    public void cancel() {
        if (OUTCOME.compareAndSet(this, null, ABANDONED)) {
            done.countDown();
        }
    }

    /** Leaves without the result: one that came already goes to the clean-up, one still to come will. */
    void abandon() {
        Object before = OUTCOME.getAndSet(this, ABANDONED);
        if (before instanceof CuratorEvent event) {
            lateResult.accept(event);
        }
    }
}
