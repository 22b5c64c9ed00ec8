package io.distlock.zookeeper;

import io.distlock.spi.Grant;
import io.distlock.spi.LeaseEvents;
import java.lang.System.Logger.Level;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;

/**
 * Turns Curator's connection states into lease events, in order, on a thread of its own (so checks that need the
 * store never block Curator's event thread): SUSPENDED makes every lease uncertain; RECONNECTED first re-checks that
 * each held node still exists in our session (reporting the missing ones lost), then makes the others certain
 * again, then deletes the nodes of our session we no longer use ({@link RevivedNodes}); LOST (the session expired)
 * reports every grant of the session lost, then the session. Each change also wakes waiting acquires to re-check.
 * A SUSPENDED that is still the latest state {@link #NUDGE_AFTER_MS} later while the ZooKeeper handle is connected
 * (one Curator posted after the reconnect, as a background operation's retries gave up) is answered with a {@link
 * SuspendedNudge}, so Curator posts the RECONNECTED that runs the checks above.
 */
final class SessionListener implements ConnectionStateListener {

    private static final System.Logger LOG = System.getLogger(SessionListener.class.getName());

    /** How soon a failed check after reconnecting is tried again, while the connection stays up. */
    private static final long VERIFY_RETRY_MS = 1000;
    /**
     * How long after a SUSPENDED the store looks whether the handle is connected all the same (Curator's flag, set on
     * the event thread before it posts RECONNECTED): past a reconnect's RECONNECTED still on its way to us.
     */
    private static final long NUDGE_AFTER_MS = 1000;
    /** How soon a sweep of unused nodes looks again whether the creates begun before its listing have ended. */
    private static final long SWEEP_WAIT_MS = 50;

    private final HeldNodes held;
    private final RevivedNodes revived;
    private final Runnable wakeWaiters;
    private final SuspendedNudge nudge;
    private final ScheduledExecutorService thread;
    /** The latest state Curator reported; a retried check runs only while it is still RECONNECTED. */
    private volatile ConnectionState latest = ConnectionState.CONNECTED;
    private volatile LeaseEvents events = LeaseEvents.NONE;

    SessionListener(HeldNodes held, RevivedNodes revived, Runnable wakeWaiters, SuspendedNudge nudge,
            String storeName) {
        this.held = held;
        this.revived = revived;
        this.wakeWaiters = wakeWaiters;
        this.nudge = nudge;
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
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
        latest = state;
        try {
            thread.execute(() -> handle(client, state));
        } catch (RejectedExecutionException closed) {
            // the store is closing; its leases are being released anyway
        }
    }

    private void handle(CuratorFramework client, ConnectionState state) {
        try {
            switch (state) {
                case SUSPENDED -> {
                    events.suspended();
                    later(() -> nudgeIfConnected(client), NUDGE_AFTER_MS);
                }
                case RECONNECTED -> reconnected(client);
                case LOST -> {
                    String reason = "the ZooKeeper session expired (or the connection stayed down for longer "
                            + "than the session timeout): its ephemeral lock nodes are gone";
                    // every grant of the session, also one the core has not registered yet: the core keeps such a
                    // loss and applies it when it registers the grant
                    for (Grant grant : held.endSession()) {
                        events.lost(grant, reason);
                    }
                    events.sessionLost(reason);
                }
                default -> {
                }
            }
        } finally {
            wakeWaiters.run();
        }
    }

    /**
     * Makes the leases certain again once every held node is checked. If the check fails while the connection is
     * still up, it is tried again shortly (leases stay UNCERTAIN meanwhile); if the connection dropped, SUSPENDED
     * follows and the next RECONNECTED checks again.
     */
    private void reconnected(CuratorFramework client) {
        if (latest != ConnectionState.RECONNECTED) {
            return; // a later state change superseded this one
        }
        if (verifyHeld(client)) {
            events.reconnected();
            sweepUnused(client, null);
        } else {
            later(() -> reconnected(client), VERIFY_RETRY_MS);
        }
    }

    /**
     * Sends the {@link SuspendedNudge} if SUSPENDED is still the latest state while the handle is connected; tried
     * again shortly if it fails while that lasts. Nothing is made certain here: the RECONNECTED it brings checks.
     */
    private void nudgeIfConnected(CuratorFramework client) {
        if (latest != ConnectionState.SUSPENDED || !client.getZookeeperClient().isConnected()) {
            return; // back, lost, or really down: its reconnect posts RECONNECTED
        }
        LOG.log(Level.INFO, "Curator reports SUSPENDED while its ZooKeeper handle is connected (a background "
                + "operation gave up as the connection came back?); nudging it to see the connection");
        try {
            nudge.send(client);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.log(Level.DEBUG, "could not nudge Curator back from SUSPENDED; trying again", e);
            later(() -> nudgeIfConnected(client), VERIFY_RETRY_MS);
        }
    }

    /**
     * Deletes the nodes of our session that we neither hold nor use ({@link RevivedNodes}), from {@code found} or
     * from a new listing if null. While creates begun before the listing have not registered their nodes, it looks
     * again shortly; a listing or delete that fails is tried again while the connection stays up.
     */
    private void sweepUnused(CuratorFramework client, RevivedNodes.Found found) {
        if (latest != ConnectionState.RECONNECTED) {
            return; // the next RECONNECTED sweeps again
        }
        try {
            ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
            RevivedNodes.Found listed = found != null ? found : revived.list(zk);
            if (revived.ready(listed)) {
                revived.deleteUnused(zk, listed);
            } else {
                later(() -> sweepUnused(client, listed), SWEEP_WAIT_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (KeeperException.UnimplementedException e) {
            // a server before 3.6 lists no session's nodes: nothing to sweep with, and nothing to try again
            LOG.log(Level.DEBUG, "the server cannot list our session's nodes (getEphemerals): no sweep", e);
        } catch (Exception e) {
            LOG.log(Level.DEBUG, "could not delete unused nodes of our session after reconnecting; trying again", e);
            later(() -> sweepUnused(client, null), VERIFY_RETRY_MS);
        }
    }

    private void later(Runnable task, long delayMs) {
        try {
            thread.schedule(task, delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closed) {
            // the store is closing
        }
    }

    /** True if every held node was checked; false if the store could not be asked. */
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
