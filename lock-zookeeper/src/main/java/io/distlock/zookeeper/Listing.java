package io.distlock.zookeeper;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.KeeperException;

/**
 * The listing of a lock parent sent straight on the ZooKeeper handle right behind our create, without Curator's
 * background-operation machinery (a builder, a retry wrapper, trace and event objects per call). It needs none of
 * it: a listing that fails, comes too late or does not show our node yet is simply taken again through Curator.
 */
final class Listing implements AsyncCallback.ChildrenCallback {

    private final CountDownLatch done = new CountDownLatch(1);
    /** The children if the listing succeeded; written before {@link #done} opens. */
    private volatile List<String> children;

    @Override
    public void processResult(int rc, String path, Object ctx, List<String> children) {
        if (rc == KeeperException.Code.OK.intValue()) {
            this.children = children;
        }
        done.countDown();
    }

    /**
     * The children listed, or null if the listing failed, was cancelled or did not come by {@code deadlineNanos} (a
     * {@link System#nanoTime()}).
     *
     * @param interruptible whether the caller's interrupt ends the wait; if not, the interrupt is kept for the caller
     * @throws InterruptedException if interruptible and interrupted
     */
    List<String> await(long deadlineNanos, boolean interruptible) throws InterruptedException {
        LatchWait.await(done, deadlineNanos, interruptible);
        return children;
    }

    /** Ends the wait now without a result: the store is closing. */
    void cancel() {
        done.countDown();
    }
}
