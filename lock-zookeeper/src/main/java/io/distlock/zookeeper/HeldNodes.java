package io.distlock.zookeeper;

import io.distlock.spi.Grant;
import io.distlock.spi.LeaseEvents;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * The nodes this backend holds locks with. A sweep every {@link #WATCH_DELAY_MS} watches the nodes held since the
 * previous sweep, so that a node deleted behind its holder's back (an operator's force-release, say) is reported lost
 * within about half a second instead of only at release; short critical sections end before the sweep and cost the
 * server, and the acquiring thread, nothing extra (measured: a watch set on every acquisition halves single-thread
 * throughput on a busy machine). After a reconnect, {@link #verify} checks that every node still exists and still
 * belongs to our session. A node is added only while the session it was created in lives, and {@link #endSession}
 * hands back every grant of a session that ended, so no grant escapes the loss of its session.
 */
final class HeldNodes implements Watcher {

    /** How often the sweep watches newly held nodes. */
    static final long WATCH_DELAY_MS = 250;

    private static final System.Logger LOG = System.getLogger(HeldNodes.class.getName());

    /**
     * The grants of held nodes by their path relative to the chroot, the very string of their {@link LockNode}, so a
     * held lease costs no second copy of it (and the node, the grant's handle, keeps the sweep's progress, so no entry
     * object either); paths ZooKeeper reports (watch events, replies) include the chroot and are mapped back with
     * {@link #relative}.
     */
    private final Map<String, Grant> byPath = new ConcurrentHashMap<>();
    /** The chroot as a path prefix ({@code /app}), or empty. */
    private final String chroot;
    private final CuratorFramework client;
    private final ScheduledThreadPoolExecutor timer;
    private volatile LeaseEvents events = LeaseEvents.NONE;
    /** Moves on when a session ends; guarded by this. */
    private long epoch;
    /**
     * Tests only: false holds the sweep off, so that a test sees what a store check (extend, renew) finds about a node
     * deleted behind its holder's back before any watch could report it.
     */
    volatile boolean sweeping = true;

    HeldNodes(CuratorFramework client, String storeName) {
        this.client = client;
        String namespace = client.getNamespace();
        this.chroot = namespace == null || namespace.isEmpty() ? "" : ZKPaths.makePath(namespace, null);
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "distlock-zookeeper-watch-" + storeName);
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::watchNewNodes, WATCH_DELAY_MS, WATCH_DELAY_MS, TimeUnit.MILLISECONDS);
    }

    void attach(LeaseEvents events) {
        this.events = events;
    }

    /**
     * The session epoch: it moves on each time a session ends. Read it before creating a node, and pass it to
     * {@link #add}: a node created before a session ended is never added after that session's grants were reported.
     */
    synchronized long epoch() {
        return epoch;
    }

    /**
     * Remembers a held node, unless its session has ended meanwhile; the next sweep but one watches it if it is still
     * held.
     *
     * @param epochAtCreate {@link #epoch()} read before the node was created
     * @param currentSession the client's session now
     * @return false if the node's session ended (a session ended since {@code epochAtCreate}, or the node belongs to
     *         another session than the current one): the grant must not be handed out
     */
    synchronized boolean add(LockNode node, Grant grant, long epochAtCreate, long currentSession) {
        if (epochAtCreate != epoch || node.sessionId() != currentSession) {
            return false;
        }
        byPath.put(node.path(), grant);
        return true;
    }

    private void watchNewNodes() {
        if (!sweeping) {
            return;
        }
        for (Map.Entry<String, Grant> held : byPath.entrySet()) {
            LockNode node = (LockNode) held.getValue().handle();
            if (node.sweeps == 0) {
                node.sweeps = 1; // held at this sweep: watched at the next one if still held
            } else if (node.sweeps == 1) {
                node.sweeps = 2;
                watch(fullPath(held.getKey()));
            }
        }
    }

    private void watch(String path) {
        try {
            // getData, not exists: on a node that is already gone it sets no watch that would wait for a creation
            client.getZookeeperClient().getZooKeeper().getData(path, this, (rc, p, ctx, data, stat) -> {
                if (rc == KeeperException.Code.NONODE.intValue()) {
                    gone(relative(p), "its node was deleted behind its back");
                }
            }, null);
        } catch (Exception e) {
            LOG.log(Level.DEBUG, "could not watch " + path + "; a loss is then found at release", e);
        }
    }

    /** Forgets a node we are about to delete ourselves; returns its grant or null if it was no longer held. */
    Grant remove(String path) {
        return byPath.remove(path);
    }

    boolean contains(String path) {
        return byPath.containsKey(path);
    }

    /**
     * Forgets every node, because the session that owned them is gone, and moves the epoch on so that no node created
     * before is added later.
     *
     * @return the grants of the forgotten nodes: every one must be reported lost, also those the core has not
     *         registered yet
     */
    synchronized List<Grant> endSession() {
        epoch++;
        List<Grant> grants = List.copyOf(byPath.values());
        byPath.clear();
        return grants;
    }

    @Override
    public void process(WatchedEvent event) {
        if (event.getType() == Event.EventType.NodeDeleted && event.getPath() != null) {
            gone(relative(event.getPath()), "its node was deleted behind its back "
                    + "(force-released by an operator, or removed by another client)");
        }
    }

    /**
     * Checks that every held node still exists and belongs to session {@code sessionId}, watching it again; reports
     * the others lost.
     *
     * @throws Exception if the store cannot be asked
     */
    void verify(long sessionId) throws Exception {
        ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
        for (String path : List.copyOf(byPath.keySet())) {
            Stat stat = new Stat();
            try {
                zk.getData(fullPath(path), this, stat); // watched again: watches set before the disconnect may be gone
            } catch (KeeperException.NoNodeException e) {
                gone(path, "its node was gone when the connection came back");
                continue;
            }
            Grant grant = byPath.get(path);
            if (stat.getEphemeralOwner() != sessionId
                    || (grant != null && ((LockNode) grant.handle()).sessionId() != sessionId)) {
                gone(path, "its node belongs to another session after reconnecting");
            }
        }
    }

    void close() {
        timer.shutdownNow();
    }

    private void gone(String path, String reason) {
        if (path == null) {
            return; // not under our chroot: not one of ours
        }
        Grant grant = byPath.remove(path);
        if (grant != null) {
            events.lost(grant, reason);
        }
    }

    /** The path as the plain ZooKeeper handle knows it: chroot included. */
    private String fullPath(String path) {
        return chroot.isEmpty() ? path : chroot + path;
    }

    /** A path ZooKeeper reported (chroot included) relative to the chroot, or null if it is outside it. */
    String relative(String reported) {
        if (chroot.isEmpty()) {
            return reported;
        }
        return reported.startsWith(chroot) && reported.length() > chroot.length()
                && reported.charAt(chroot.length()) == '/' ? reported.substring(chroot.length()) : null;
    }
}
