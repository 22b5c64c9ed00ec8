package io.distlock.zookeeper;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

/**
 * How one waiting acquire is woken: set as the watch on its predecessor's node, it fires when that node changes or
 * goes; the backend also fires it on connection changes and close. One instance per acquire call, so repeated watches
 * on the same predecessor collapse into one on the server.
 */
final class Wakeup implements Watcher {

    private final Semaphore signal = new Semaphore(0);

    @Override
    public void process(WatchedEvent event) {
        wake();
    }

    /** Wakes the waiter now (or its next wait, if it is not waiting). */
    void wake() {
        signal.release();
    }

    /** Forgets wake-ups from before: call before setting a new watch. */
    void reset() {
        signal.drainPermits();
    }

    /** Waits until woken or {@code nanos} pass (the safety-net re-check). */
    void await(long nanos) throws InterruptedException {
        if (signal.tryAcquire(nanos, TimeUnit.NANOSECONDS)) {
            signal.drainPermits();
        }
    }
}
