package io.distlock.zookeeper;

/**
 * The handle of a granted ZooKeeper lock: the path of our ephemeral-sequential node, its creation zxid (the fencing
 * token) and the session that owns it.
 *
 * @param path the node's path, relative to the store's chroot
 * @param czxid the zxid of the transaction that created the node: globally increasing across the ensemble
 * @param sessionId the ZooKeeper session the ephemeral node belongs to
 */
record LockNode(String path, long czxid, long sessionId) {
}
