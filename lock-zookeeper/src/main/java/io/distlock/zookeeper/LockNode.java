package io.distlock.zookeeper;

import java.util.Objects;

/**
 * The handle of a granted ZooKeeper lock: the path of our ephemeral-sequential node, its creation zxid (the fencing
 * token) and the session that owns it. It also carries how far {@link HeldNodes}' sweep got with the node while it is
 * held, so a held lease costs no separate bookkeeping object; equality is by path, zxid and session only.
 */
final class LockNode {

    /** {@link #parentVersion()} of a node whose parent this client must leave to the server. */
    static final int KEEP_PARENT = -1;

    private final String path;
    private final long czxid;
    private final long sessionId;
    /**
     * The node's data version as our last write left it: 0 as created, one more once the stamp transaction
     * ({@link ZooKeeperBackend#nextToken}) wrote it. A release deletes only this version, so a node made again at our
     * path by another client (version 0) is never deleted in our name. Written by the acquiring thread before the
     * grant is published.
     */
    private int version;
    /**
     * The data version our stamp left the parent at, if the token it granted is below the server clock from the next
     * millisecond on ({@link FenceFloor#belowClockAfter}) or the parent is pinned ({@link #pinned});
     * {@link #KEEP_PARENT} if neither, or if unknown. What {@link EmptiedParents} deletes the parent at once the node
     * is released. Written by the acquiring thread before the grant is published.
     */
    private int parentVersion = KEEP_PARENT;
    /**
     * The zxid of our stamp if it left the parent with its pin ({@link FencePin}), made by it or by an earlier stamp,
     * else 0: then the parent goes only with its pin, once the server clock has passed our token, and only with a pin
     * made no later than the stamp (one made later is another parent's, {@link EmptiedParents}). Written by the
     * acquiring thread before the grant is published.
     */
    private long pinnedBy;
    /**
     * How far the sweep got with this node: {@link HeldNodes#NEW}, {@code SEEN}, {@code WATCHED} (on its own) or
     * {@code COVERED} (by its root's watch); written by the sweep thread only.
     */
    byte sweeps;

    /**
     * @param path the node's path, relative to the store's chroot
     * @param czxid the zxid of the transaction that created the node: globally increasing across the ensemble
     * @param sessionId the ZooKeeper session the ephemeral node belongs to
     */
    LockNode(String path, long czxid, long sessionId) {
        this.path = Objects.requireNonNull(path, "path");
        this.czxid = czxid;
        this.sessionId = sessionId;
    }

    /** The node's path, relative to the store's chroot. */
    String path() {
        return path;
    }

    /** The zxid of the transaction that created the node. */
    long czxid() {
        return czxid;
    }

    /** The ZooKeeper session the ephemeral node belongs to. */
    long sessionId() {
        return sessionId;
    }

    /** The node's data version as our last write left it. */
    int version() {
        return version;
    }

    /** Records the version our write (the stamp) left the node at. */
    void version(int version) {
        this.version = version;
    }

    /**
     * The data version our stamp left the parent at, or {@link #KEEP_PARENT}: its token is ahead of the server clock
     * and the parent has no pin (the server clock stepped back), or the node was never stamped.
     */
    int parentVersion() {
        return parentVersion;
    }

    /** Records the version our stamp left the parent at, or {@link #KEEP_PARENT}. */
    void parentVersion(int parentVersion) {
        this.parentVersion = parentVersion;
    }

    /** Whether our stamp left the parent with its pin ({@link FencePin}). */
    boolean pinned() {
        return pinnedBy != 0;
    }

    /** The zxid of our stamp if it left the parent with its pin, else 0. */
    long pinnedBy() {
        return pinnedBy;
    }

    /** Records the zxid of our stamp if it left the parent with its pin, else 0. */
    void pinnedBy(long stampZxid) {
        this.pinnedBy = stampZxid;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LockNode other && path.equals(other.path) && czxid == other.czxid
                && sessionId == other.sessionId;
    }

    @Override
    public int hashCode() {
        return path.hashCode();
    }

    @Override
    public String toString() {
        return "LockNode[" + path + ", czxid=" + czxid + ", session=0x" + Long.toHexString(sessionId) + "]";
    }
}
