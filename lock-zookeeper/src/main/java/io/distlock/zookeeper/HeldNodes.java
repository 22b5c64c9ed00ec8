package io.distlock.zookeeper;

import io.distlock.spi.Grant;
import io.distlock.spi.LeaseEvents;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
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
 * throughput on a busy machine). While many nodes under a lock root are held long, one {@link RootWatch} on the root
 * stands in for their watches (a watch per node costs about 500 B of heap). After a reconnect, {@link #verify} checks
 * that every node still exists and still belongs to our session. A node is added only while the session it was created
 * in lives, and {@link #endSession} hands back every grant of a session that ended, so no grant escapes the loss of its
 * session.
 */
final class HeldNodes implements Watcher {

    /** How often the sweep watches newly held nodes. */
    static final long WATCH_DELAY_MS = 250;

    /** Sweep states of a held node ({@link LockNode#sweeps}): not seen by a sweep yet. */
    static final byte NEW = 0;
    /** Held at one sweep: watched at the next one if still held. */
    static final byte SEEN = 1;
    /** Watched on its own. */
    static final byte WATCHED = 2;
    /** Covered by its root's watch (and checked once after that watch was set). */
    static final byte COVERED = 3;

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
    /** The lock roots' watches: locks, semaphores. */
    private final List<RootWatch> roots;
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
        this.roots = List.of(new RootWatch(ZooKeeperBackend.ROOT, chroot),
                new RootWatch(ZooKeeperPermits.ROOT, chroot));
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
        ZooKeeper zk;
        try {
            zk = client.getZookeeperClient().getZooKeeper();
        } catch (Exception e) {
            LOG.log(Level.DEBUG, "no ZooKeeper handle to watch held nodes with; trying at the next sweep", e);
            return;
        }
        for (RootWatch root : roots) {
            sweep(root, zk);
        }
    }

    /**
     * One sweep of the nodes under {@code root}: a node held at the previous sweep is now due to be watched, on its
     * own or, from {@link RootWatch#ON_FROM} long-held nodes on, by the root watch (and checked once, for a deletion
     * before that watch was set). Below {@link RootWatch#OFF_BELOW} long-held nodes each is watched on its own again
     * and then the root watch removed (one session's requests are processed in order, so no deletion falls between).
     */
    private void sweep(RootWatch root, ZooKeeper zk) {
        List<LockNode> due = new ArrayList<>();
        int watched = 0;
        int covered = 0;
        for (Grant grant : byPath.values()) {
            LockNode node = (LockNode) grant.handle();
            if (!root.covers(node.path())) {
                continue;
            }
            switch (node.sweeps) {
                case NEW -> node.sweeps = SEEN; // held at this sweep: watched at the next one if still held
                case SEEN -> due.add(node);
                case WATCHED -> watched++;
                default -> covered++;
            }
        }
        int longHeld = due.size() + watched + covered;
        switch (root.state()) {
            case OFF -> {
                if (longHeld >= RootWatch.ON_FROM) {
                    root.add(zk, this); // the due nodes wait for it: covered at the next sweep
                } else {
                    watchEach(due, zk);
                }
            }
            case ADDING -> {
                // the due nodes wait for the server's answer
            }
            case ON -> {
                if (longHeld < RootWatch.OFF_BELOW) {
                    watchEach(due, zk);
                    watchEach(coveredUnder(root), zk);
                    root.remove(zk);
                } else {
                    for (LockNode node : due) {
                        node.sweeps = COVERED;
                        check(zk, node);
                    }
                }
            }
            case UNSUPPORTED -> watchEach(due, zk);
        }
    }

    private List<LockNode> coveredUnder(RootWatch root) {
        List<LockNode> covered = new ArrayList<>();
        for (Grant grant : byPath.values()) {
            LockNode node = (LockNode) grant.handle();
            if (node.sweeps == COVERED && root.covers(node.path())) {
                covered.add(node);
            }
        }
        return covered;
    }

    private void watchEach(List<LockNode> nodes, ZooKeeper zk) {
        for (LockNode node : nodes) {
            node.sweeps = WATCHED;
            watch(zk, node);
        }
    }

    /** Watches a held node on its own; a node already gone is reported lost. */
    private void watch(ZooKeeper zk, LockNode node) {
        String path = node.path();
        try {
            // getData, not exists: on a node that is already gone it sets no watch that would wait for a creation
            zk.getData(fullPath(path), this, this::goneIfNotOurs, node);
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "could not watch " + path + "; a loss is then found at release", e);
        }
    }

    /** Checks, without a watch, that a node the root watch covers still exists; one already gone is reported lost. */
    private void check(ZooKeeper zk, LockNode node) {
        String path = node.path();
        try {
            zk.getData(fullPath(path), null, this::goneIfNotOurs, node);
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "could not check " + path + "; a loss is then found at release", e);
        }
    }

    private void goneIfNotOurs(int rc, String path, Object ctx, byte[] data, Stat stat) {
        if (rc == KeeperException.Code.NONODE.intValue()) {
            gone(relative(path), "its node was deleted behind its back");
        } else if (rc == KeeperException.Code.OK.intValue() && !ZooKeeperBackend.isOurs(stat, (LockNode) ctx)) {
            gone(relative(path), "its node was deleted and made again by another session behind its back");
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
        for (RootWatch root : roots) {
            root.reset();
        }
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
     * Checks that every held node still exists and belongs to session {@code sessionId}, watching it again (or its
     * root, if the root watch covers it); reports the others lost.
     *
     * @throws Exception if the store cannot be asked
     */
    void verify(long sessionId) throws Exception {
        ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
        for (RootWatch root : roots) {
            root.renew(zk, this); // before the checks below: requests are processed in order
        }
        for (Grant held : List.copyOf(byPath.values())) {
            LockNode node = (LockNode) held.handle();
            String path = node.path();
            // watched again, unless a root watch covers it: watches set before the disconnect may be gone
            boolean covered = node.sweeps == COVERED && rootOf(path).state() == RootWatch.State.ON;
            Stat stat = new Stat();
            try {
                zk.getData(fullPath(path), covered ? null : this, stat);
            } catch (KeeperException.NoNodeException e) {
                gone(path, "its node was gone when the connection came back");
                continue;
            }
            if (stat.getEphemeralOwner() != sessionId || !ZooKeeperBackend.isOurs(stat, node)) {
                gone(path, "its node belongs to another session after reconnecting");
            }
        }
    }

    /** The root watch of the root {@code path} lies under. */
    private RootWatch rootOf(String path) {
        for (RootWatch root : roots) {
            if (root.covers(path)) {
                return root;
            }
        }
        throw new IllegalArgumentException("not under a lock root: " + path);
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

    /** The path as the plain ZooKeeper handle knows it: chroot included (the same string if there is no chroot). */
    String fullPath(String path) {
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
