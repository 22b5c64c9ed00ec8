package io.distlock.zookeeper;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * The listing of a lock parent and the read of its fence (its data and stat, {@link FenceFloor}), sent straight on the
 * ZooKeeper handle one right behind the other (and behind our create), without Curator's background-operation
 * machinery (a builder, a retry wrapper, trace and event objects per call). They need none of it: a listing that
 * fails, comes too late or does not show our node yet is simply taken again through Curator, and so is the fence.
 *
 * <p>The fence read is handed out only once the listing showed our node ({@link #fence}): ZooKeeper answers one
 * session's requests in the order they were sent, and a client reconnects only to a server that has seen every
 * change it saw, so a read sent after such a listing saw the parent with our node in it, the one our stamp writes.
 * Even so the stamp writes the fence only at the version read, so a read that another grant's stamp overtook costs
 * a read more, never a token given twice.
 *
 * <p>A waiter woken by the deletion of the stamped holder right before it sends, instead of the read, the stamp at
 * the fence it read when it queued ({@link StampAhead}); that stamp rides here ({@link #takeEarly}) until the
 * listing shows whether it was first.
 */
final class Listing implements AsyncCallback.ChildrenCallback, AsyncCallback.DataCallback, Cancellable {

    private final CountDownLatch listed = new CountDownLatch(1);
    private final CountDownLatch read = new CountDownLatch(1);
    /** The children if the listing succeeded; written before {@link #listed} opens. */
    private volatile List<String> children;
    /** The fence if its read succeeded; written before {@link #read} opens. */
    private volatile Fence fence;
    /** Whether the listing showed our node: only then is the fence read used. */
    private volatile boolean showedOurs;
    /** The stamp sent behind this listing instead of a fence read, until taken; only the listing's caller uses it. */
    private StampAhead.Sent early;

    /** A listing with the fence read behind it, or without ({@code read} false: {@link #fence} then gives null). */
    Listing(boolean read) {
        if (!read) {
            this.read.countDown();
        }
    }

    /** The parent's data and stat as one read returned them. */
    record Fence(byte[] data, Stat stat) {
    }

    @Override
    public void processResult(int rc, String path, Object ctx, List<String> children) {
        if (rc == KeeperException.Code.OK.intValue()) {
            this.children = children;
        }
        listed.countDown();
    }

    @Override
    public void processResult(int rc, String path, Object ctx, byte[] data, Stat stat) {
        if (rc == KeeperException.Code.OK.intValue()) {
            this.fence = new Fence(data, stat);
        }
        read.countDown();
    }

    /**
     * The children listed if they show {@code ourNode}, else null (the listing failed, was cancelled, did not come by
     * {@code deadlineNanos}, a {@link System#nanoTime()}, or was taken before our node was made).
     *
     * @param interruptible whether the caller's interrupt ends the wait; if not, the interrupt is kept for the caller
     * @throws InterruptedException if interruptible and interrupted
     */
    List<String> awaitShowing(String ourNode, long deadlineNanos, boolean interruptible) throws InterruptedException {
        StampAhead.Sent stamp = early;
        if (stamp != null) {
            // its answer comes right behind the listing's: the caller wakes once for both, not once for each; a stamp
            // not answered by then is still the caller's, who waits for it again if the listing shows it first
            stamp.call().awaitWithoutGivingUp(deadlineNanos, interruptible);
        }
        LatchWait.await(listed, deadlineNanos, interruptible);
        List<String> listedChildren = children;
        if (listedChildren == null || !listedChildren.contains(ourNode)) {
            return null;
        }
        showedOurs = true;
        return listedChildren;
    }

    /**
     * The fence read behind a listing that showed our node, or null (the listing did not, or the read failed, was
     * cancelled or did not come by {@code deadlineNanos}): then the fence is read again.
     *
     * @throws InterruptedException if interruptible and interrupted
     */
    Fence fence(long deadlineNanos, boolean interruptible) throws InterruptedException {
        if (!showedOurs) {
            return null;
        }
        LatchWait.await(read, deadlineNanos, interruptible);
        return fence;
    }

    /**
     * The fence read behind this listing if it has come and the listing showed our node ({@link #awaitShowing}), else
     * null; does not wait.
     */
    Fence fenceIfRead() {
        return showedOurs && read.getCount() == 0 ? fence : null;
    }

    /** Records the stamp sent right behind this listing (instead of the fence read). */
    void stampedBehind(StampAhead.Sent stamp) {
        this.early = stamp;
    }

    /** The stamp sent right behind this listing, once (null after, or if none was sent). */
    StampAhead.Sent takeEarly() {
        StampAhead.Sent stamp = early;
        early = null;
        return stamp;
    }

    /** Ends the waits now without a result: the store is closing. */
    @Override
    public void cancel() {
        listed.countDown();
        read.countDown();
    }
}
