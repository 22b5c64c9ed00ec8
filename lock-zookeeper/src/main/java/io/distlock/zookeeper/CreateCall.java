package io.distlock.zookeeper;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.data.Stat;

/**
 * The answer to one create sent straight on the ZooKeeper handle ({@code create2}: the node's name and stat), waited
 * for within a deadline. A node that the server made after the wait was given up (it ran out, was interrupted or
 * cancelled by close) is handed to the clean-up given at construction, as {@link BoundedCall} does for Curator's
 * create: nobody uses it.
 */
final class CreateCall implements AsyncCallback.Create2Callback, Cancellable {

    private static final int WAITING = 0;
    private static final int ANSWERED = 1;
    private static final int ABANDONED = 2;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(CreateCall.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // through STATE
    private volatile int state;
    private final CountDownLatch done = new CountDownLatch(1);
    private final Consumer<String> lateNode;
    private int code;
    private String name;
    private Stat stat;

    /** @param lateNode deletes a node (its full path) that was made after the wait for it was given up */
    CreateCall(Consumer<String> lateNode) {
        this.lateNode = lateNode;
    }

    @Override
    public void processResult(int rc, String path, Object ctx, String createdName, Stat createdStat) {
        this.code = rc;
        this.name = createdName;
        this.stat = createdStat;
        if (STATE.compareAndSet(this, WAITING, ANSWERED)) {
            done.countDown(); // publishes the fields written above to the waiter
        } else if (rc == org.apache.zookeeper.KeeperException.Code.OK.intValue() && createdName != null) {
            lateNode.accept(createdName);
        }
    }

    /**
     * Waits for the answer until {@code deadlineNanos}; false if none came in time (or close cancelled the wait), in
     * which case a node made later goes to the clean-up.
     *
     * @throws InterruptedException if interruptible and interrupted; a node made later goes to the clean-up
     */
    boolean await(long deadlineNanos, boolean interruptible) throws InterruptedException {
        try {
            LatchWait.await(done, deadlineNanos, interruptible);
        } catch (InterruptedException e) {
            abandon();
            throw e;
        }
        if (STATE.compareAndSet(this, WAITING, ABANDONED)) {
            return false;
        }
        return (int) STATE.getVolatile(this) == ANSWERED;
    }

    /** Gives up the wait: a node the create made (now or later) goes to the clean-up. */
    void abandon() {
        int before = (int) STATE.getAndSet(this, ABANDONED);
        if (before == ANSWERED && code == org.apache.zookeeper.KeeperException.Code.OK.intValue() && name != null) {
            lateNode.accept(name);
        }
    }

    @Override
    public void cancel() {
        if (STATE.compareAndSet(this, WAITING, ABANDONED)) {
            done.countDown();
        }
    }

    /** The result code of an answered create. */
    int code() {
        return code;
    }

    /** The full path of the node made (with the chroot), if the create succeeded. */
    String name() {
        return name;
    }

    /** The stat of the node made, if the create succeeded. */
    Stat stat() {
        return stat;
    }
}
