package io.distlock.zookeeper;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;

/**
 * The nodes of this client's live session that it neither holds nor still uses ({@link PendingNodes}): after a
 * reconnect in the same session it lists and deletes all of them under the lock roots, and a contender asks it about
 * the node just ahead of its own ({@link #unused}, {@link #judgeable}). ZooKeeper ends a node only with its session, so
 * such a node would hold the name for as long as the client lives. Two ways make one:
 * <ul>
 * <li>a server restored from an older copy brings back the nodes the copy had, with their sessions, and a client
 * whose session is in the copy reconnects in it as soon as other clients' writes take the server past the
 * transactions it had seen: a node it released after the copy is back (a release whose delete was lost with the
 * server is repeated by Curator: a guaranteed delete);</li>
 * <li>a create whose reply the dropped connection lost: the server made the node, the client heard of no node, and
 * Curator sends the create again (the store does not use Curator's protection mode, whose clean-up of a spent create
 * recurses while the client is not connected: Z8 of lock-tck/DEFECTS.md), so the lost node sits ahead of the one in
 * use. A lost reply comes with a disconnect, so the sweep after the reconnect finds it; the contender behind it
 * usually finds it first.</li>
 * </ul>
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

    /** Whether every create begun so far has ended (its node, if any, registered): its node can be judged. */
    boolean settled() {
        return pending.createdUpTo(pending.lastCreate());
    }

    /**
     * Whether a node of our session made by our create number {@code create} (read from its name; 0 if the name
     * carries none of ours) can be judged: that create has ended, so the node it registered, if any, is in use, and
     * a node of that number in use by nobody is the one of a reply it lost (Curator sent it again with the same
     * number) or of an answer that came after we stopped waiting. Other creates in flight do not matter: their nodes
     * carry their own numbers. A name without our number (not made by this store) is judged once {@link #settled}.
     */
    boolean judgeable(long create) {
        return create > 0 ? pending.ended(create) : settled();
    }

    /**
     * Whether this client neither uses nor holds the node of its session at {@code path}. A node moves between the
     * two sets while we look (a grant adds it to the held ones before it leaves the pending ones, a release adds it
     * to the pending ones before it leaves the held ones), so pending is asked, then held, then pending again: a node
     * found in neither was given up, or its release has ended. Ask only once {@link #judgeable} (or {@link #ready}), so
     * that a node whose create has not answered yet is not taken for an unused one.
     */
    boolean unused(String path) {
        return !(pending.contains(path) || held.contains(path) || pending.contains(path));
    }

    /**
     * Deletes the nodes of {@code found} this client neither uses nor holds ({@link #unused}); call once
     * {@link #ready}.
     *
     * @return how many were deleted
     */
    int deleteUnused(ZooKeeper zk, Found found) throws KeeperException, InterruptedException {
        int deleted = 0;
        for (String path : found.paths()) {
            if (!unused(path)) {
                continue;
            }
            try {
                zk.delete(held.fullPath(path), -1);
                deleted++;
                LOG.log(Level.INFO, "deleted " + path + ": a node of this client's session that it neither holds nor"
                        + " waits with (a create whose reply was lost, or a node a server restored from an older copy"
                        + " brought back)");
            } catch (KeeperException.NoNodeException e) {
                // gone meanwhile (a delete of our own in the background)
            }
        }
        return deleted;
    }
}
