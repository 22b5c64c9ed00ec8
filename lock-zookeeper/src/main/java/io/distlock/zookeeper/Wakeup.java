package io.distlock.zookeeper;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

/**
 * How one waiting acquire is woken: set as the watch on its predecessor's node, it fires when that node goes (a lock
 * waiter's child watch, {@link ZooKeeperBackend#watchUntilGone}) or also when it changes (a permit waiter's data
 * watch on its predecessor); the backend also fires it on connection changes and close. One instance per acquire
 * call, so repeated watches on the same predecessor collapse into one. It remembers which node it still watches, so
 * that a wait that ends without the watch firing (a timeout, say) can remove the watch instead of leaving it in the
 * client.
 */
final class Wakeup implements Watcher {

    private final Semaphore signal = new Semaphore(0);
    /** The node whose watch is set and has not fired yet, or null. */
    private volatile String watched;
    /** The path of the node whose deletion fired a watch since the last {@link #reset}, or null. */
    private volatile String deleted;

    @Override
    public void process(WatchedEvent event) {
        if (event.getType() != Event.EventType.None) {
            watched = null; // a node event consumes the watch; connection events do not
        }
        if (event.getType() == Event.EventType.NodeDeleted) {
            deleted = event.getPath();
        }
        wake();
    }

    /** Wakes the waiter now (or its next wait, if it is not waiting). */
    void wake() {
        signal.release();
    }

    /** Forgets wake-ups from before: call before setting a new watch. */
    void reset() {
        deleted = null;
        signal.drainPermits();
    }

    /**
     * Whether the watch fired because node {@code name} (the last segment of its path) was deleted, since the last
     * {@link #reset}: not a connection change, a close or the safety-net re-check.
     */
    boolean sawDeleted(String name) {
        String path = deleted;
        return path != null && path.endsWith(name) && path.length() > name.length()
                && path.charAt(path.length() - name.length() - 1) == '/';
    }

    /**
     * Records that the watch on {@code path} is set.
     *
     * @return the node watched before if it is another one and its watch has not fired, else null
     */
    String watching(String path) {
        String before = watched;
        watched = path;
        return before == null || before.equals(path) ? null : before;
    }

    /** The node whose watch is still set (to remove it), or null; forgets it. */
    String stopWatching() {
        String path = watched;
        watched = null;
        return path;
    }

    /** Waits until woken or {@code nanos} pass (the safety-net re-check). */
    void await(long nanos) throws InterruptedException {
        if (signal.tryAcquire(nanos, TimeUnit.NANOSECONDS)) {
            signal.drainPermits();
        }
    }
}
