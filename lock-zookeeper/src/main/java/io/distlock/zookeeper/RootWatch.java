package io.distlock.zookeeper;

import java.lang.System.Logger.Level;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.Watcher.WatcherType;
import org.apache.zookeeper.ZooKeeper;

/**
 * A persistent recursive watch (ZooKeeper 3.6+) on one lock root, which stands in for the one-shot watches of the
 * nodes held long under it. A one-shot watch costs about 500 B of heap per node (an entry in the client's watch table
 * and one in the server's), the root watch nothing per node; but it brings this client an event for every node any
 * client creates or deletes under the root (two per acquire/release pair of anyone's), so {@link HeldNodes} sets it
 * only while at least {@link #ON_FROM} nodes under the root are held long, and removes it again once fewer than
 * {@link #OFF_BELOW} are. A server that does not know the watch mode refuses it once; the nodes are then watched one
 * by one.
 */
final class RootWatch {

    /**
     * Long-held nodes under a root from which one root watch stands in for a watch each. High, because what the root
     * watch costs grows with everybody's traffic under the root, not with this client's nodes: only a client holding
     * this many leases at once saves enough heap (about half a megabyte here) to be worth an event per node anybody
     * creates or deletes.
     */
    static final int ON_FROM = 1024;
    /** Long-held nodes under a root below which the root watch goes and each node is watched on its own again. */
    static final int OFF_BELOW = 256;

    private static final System.Logger LOG = System.getLogger(RootWatch.class.getName());

    /** Where the root watch stands. */
    enum State { OFF, ADDING, ON, UNSUPPORTED }

    /** The root relative to the chroot, with a trailing slash: what the paths of nodes under it start with. */
    private final String prefix;
    /** The root as the plain ZooKeeper handle knows it: chroot included. */
    private final String fullPath;
    private State state = State.OFF;
    /** Counts additions and resets: the reply to an older addition changes nothing. */
    private int attempt;

    /**
     * @param root the root, relative to the store's chroot ({@code /distlock})
     * @param chroot the chroot as a path prefix, or empty
     */
    RootWatch(String root, String chroot) {
        this.prefix = root + "/";
        this.fullPath = chroot + root;
    }

    /** Whether {@code path} (relative to the chroot) lies under this root. */
    boolean covers(String path) {
        return path.startsWith(prefix);
    }

    synchronized State state() {
        return state;
    }

    /**
     * Asks the server for the root watch, in the background: the state is {@link State#ADDING} until it answers, then
     * {@link State#ON}, or {@link State#OFF} again if it could not be set.
     */
    synchronized void add(ZooKeeper zk, Watcher watcher) {
        if (state != State.OFF) {
            return;
        }
        state = State.ADDING;
        int mine = ++attempt;
        try {
            zk.addWatch(fullPath, watcher, AddWatchMode.PERSISTENT_RECURSIVE, (rc, path, ctx) -> added(mine, rc),
                    null);
        } catch (RuntimeException e) {
            state = State.OFF;
            LOG.log(Level.DEBUG, "could not ask for a watch on " + fullPath + "; its nodes are watched one by one", e);
        }
    }

    private synchronized void added(int which, int rc) {
        if (which != attempt) {
            return;
        }
        if (rc == KeeperException.Code.OK.intValue()) {
            state = State.ON;
        } else if (rc == KeeperException.Code.UNIMPLEMENTED.intValue()) {
            state = State.UNSUPPORTED;
            LOG.log(Level.INFO, "the ZooKeeper server has no persistent recursive watches (before 3.6): each "
                    + "long-held lock node under " + fullPath + " is watched on its own");
        } else {
            state = State.OFF;
            LOG.log(Level.DEBUG, "could not set the watch on " + fullPath + " (" + KeeperException.Code.get(rc)
                    + "); trying again at the next sweep");
        }
    }

    /**
     * Sets the root watch again on the server, waiting for its answer, if it is on: after a reconnect, before the
     * nodes under it are checked without a watch each.
     *
     * @throws Exception if the server could not be asked
     */
    void renew(ZooKeeper zk, Watcher watcher) throws Exception {
        if (state() == State.ON) {
            zk.addWatch(fullPath, watcher, AddWatchMode.PERSISTENT_RECURSIVE);
        }
    }

    /**
     * Removes the root watch, in the background, from the client at once and from the server when it answers. Call it
     * once every node under the root has been watched on its own again.
     */
    synchronized void remove(ZooKeeper zk) {
        if (state != State.ON) {
            return;
        }
        state = State.OFF;
        attempt++;
        try {
            // all of this client's watchers of the kind on the root (only ours): removing just one watcher only checks
            // on the server, which would keep the watch, and its events, until the session ends
            zk.removeAllWatches(fullPath, WatcherType.PersistentRecursive, true, (rc, path, ctx) -> { }, null);
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "could not remove the watch on " + fullPath + "; it goes with the session", e);
        }
    }

    /** Forgets the root watch: its session has ended, and a new session's handle has no watches. */
    synchronized void reset() {
        if (state != State.UNSUPPORTED) {
            state = State.OFF;
        }
        attempt++;
    }

    @Override
    public String toString() {
        return "RootWatch[" + fullPath + ", " + state() + "]";
    }
}
