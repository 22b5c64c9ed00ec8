package io.distlock.zookeeper;

import io.distlock.spi.LeaseEvents;
import java.lang.System.Logger.Level;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;

/**
 * Turns Curator's connection states into lease events, in order, on a thread of its own (so checks that need the
 * store never block Curator's event thread): SUSPENDED makes every lease uncertain; RECONNECTED first re-checks that
 * each held node still exists in our session (reporting the missing ones lost), then makes the others certain
 * again; LOST (the session expired) loses every lease. Each change also wakes waiting acquires to re-check.
 */
final class SessionListener implements ConnectionStateListener {

    private static final System.Logger LOG = System.getLogger(SessionListener.class.getName());

    private final HeldNodes held;
    private final Runnable wakeWaiters;
    private final ExecutorService thread;
    private volatile LeaseEvents events = LeaseEvents.NONE;

    SessionListener(HeldNodes held, Runnable wakeWaiters, String storeName) {
        this.held = held;
        this.wakeWaiters = wakeWaiters;
        this.thread = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "distlock-zookeeper-session-" + storeName);
            t.setDaemon(true);
            return t;
        });
    }

    void attach(LeaseEvents events) {
        this.events = events;
    }

    @Override
    public void stateChanged(CuratorFramework client, ConnectionState state) {
        try {
            thread.execute(() -> handle(client, state));
        } catch (RejectedExecutionException closed) {
            // the store is closing; its leases are being released anyway
        }
    }

    private void handle(CuratorFramework client, ConnectionState state) {
        try {
            switch (state) {
                case SUSPENDED -> events.suspended();
                case RECONNECTED -> {
                    if (verifyHeld(client)) {
                        events.reconnected();
                    }
                }
                case LOST -> {
                    held.clear();
                    events.sessionLost("the ZooKeeper session expired (or the connection stayed down for longer "
                            + "than the session timeout): its ephemeral lock nodes are gone");
                }
                default -> {
                }
            }
        } finally {
            wakeWaiters.run();
        }
    }

    /** True if every held node was checked; false if the connection dropped again (SUSPENDED follows). */
    private boolean verifyHeld(CuratorFramework client) {
        try {
            held.verify(client.getZookeeperClient().getZooKeeper().getSessionId());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            LOG.log(Level.DEBUG, "could not verify held lock nodes after reconnecting; waiting for the next reconnect",
                    e);
            return false;
        }
    }

    void close() {
        thread.shutdownNow();
    }
}
