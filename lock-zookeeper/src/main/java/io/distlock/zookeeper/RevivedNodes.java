package io.distlock.zookeeper;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;

/**
 * Deletes, after a reconnect in the same session, the nodes of that session under the lock roots that this client
 * neither holds nor still uses ({@link PendingNodes}). ZooKeeper ends a node only with its session, and a live
 * session can own a node its client let go of: a server restored from an older copy brings back the nodes the copy
 * had, with their sessions, and a client whose session is in the copy reconnects in it as soon as other clients'
 * writes take the server past the transactions it had seen; a node it released after the copy then holds the name for
 * as long as the client lives. (A release whose delete was lost with the server is repeated by Curator: a guaranteed
 * delete.)
 */
final class RevivedNodes {

    private static final System.Logger LOG = System.getLogger(RevivedNodes.class.getName());

    /** Our session's nodes under the lock roots, and the last create begun before they were listed. */
    record Found(List<String> paths, long lastCreate) {
    }

    private final HeldNodes held;
    private final PendingNodes pending;

    RevivedNodes(HeldNodes held, PendingNodes pending) {
        this.held = held;
        this.pending = pending;
    }

    /**
     * Lists the ephemeral nodes of {@code zk}'s session under the lock roots (one request; the answer names both the
     * lock and the semaphore root, which share the prefix).
     */
    Found list(ZooKeeper zk) throws KeeperException, InterruptedException {
        List<String> listed = zk.getEphemerals(held.fullPath(ZooKeeperBackend.ROOT));
        long lastCreate = pending.lastCreate(); // a create listed above was begun before this
        List<String> paths = new ArrayList<>();
        for (String reported : listed) {
            String path = held.relative(reported);
            if (path != null && (path.startsWith(ZooKeeperBackend.ROOT + "/")
                    || path.startsWith(ZooKeeperPermits.ROOT + "/"))) {
                paths.add(path);
            }
        }
        return new Found(paths, lastCreate);
    }

    /** Whether every create begun before {@code found} was listed has registered its node: then it can be judged. */
    boolean ready(Found found) {
        return pending.createdUpTo(found.lastCreate());
    }

    /**
     * Deletes the nodes of {@code found} this client neither uses nor holds; call once {@link #ready}. A node moves
     * between the two sets while we look (a grant adds it to the held ones before it leaves the pending ones, a
     * release adds it to the pending ones before it leaves the held ones), so pending is asked, then held, then
     * pending again: a node found in neither was given up, or its release has ended.
     *
     * @return how many were deleted
     */
    int deleteUnused(ZooKeeper zk, Found found) throws KeeperException, InterruptedException {
        int deleted = 0;
        for (String path : found.paths()) {
            if (pending.contains(path) || held.contains(path) || pending.contains(path)) {
                continue;
            }
            try {
                zk.delete(held.fullPath(path), -1);
                deleted++;
                LOG.log(Level.INFO, "deleted " + path + ": a node of this client's session that it neither holds nor"
                        + " waits with (a server restored from an older copy brings back nodes released since)");
            } catch (KeeperException.NoNodeException e) {
                // gone meanwhile (a delete of our own in the background)
            }
        }
        return deleted;
    }
}
