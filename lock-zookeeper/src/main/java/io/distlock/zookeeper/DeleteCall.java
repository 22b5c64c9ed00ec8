package io.distlock.zookeeper;

import java.util.concurrent.CountDownLatch;
import org.apache.zookeeper.AsyncCallback;

/**
 * The answer to a release's delete sent straight on the ZooKeeper handle ({@link ZooKeeperBackend#release}), without
 * Curator's builders, retry wrapper and event objects. The handle sends nothing again: a delete that lost its
 * connection or session (or whose answer did not come in time) is handed to Curator's guaranteed delete, which does.
 */
final class DeleteCall implements AsyncCallback.VoidCallback {

    private final CountDownLatch done = new CountDownLatch(1);
    private volatile int code;
    private volatile boolean answered;

    @Override
    public void processResult(int rc, String path, Object ctx) {
        this.code = rc;
        this.answered = true;
        done.countDown();
    }

    /** Waits for the answer until {@code deadlineNanos} (a {@link System#nanoTime()}), not interruptibly. */
    boolean await(long deadlineNanos) throws InterruptedException {
        LatchWait.await(done, deadlineNanos, false);
        return answered;
    }

    /** The delete's result code, once answered. */
    int code() {
        return code;
    }

    /** Ends the wait now without an answer: the store is closing. */
    void cancel() {
        done.countDown();
    }
}
