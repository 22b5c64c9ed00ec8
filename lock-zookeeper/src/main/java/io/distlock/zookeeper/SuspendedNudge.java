package io.distlock.zookeeper;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;

/**
 * Brings Curator back from a SUSPENDED it posted while its ZooKeeper handle stayed connected. Curator posts SUSPENDED
 * also when a background operation's retries run out ("Background operation retry gave up": {@code
 * CuratorFrameworkImpl.checkBackgroundRetry} takes the operation's CONNECTIONLOSS for a disconnect), on its background
 * thread, which read the connection as down a moment before: if the connection came back in that moment, the
 * SUSPENDED follows the RECONNECTED, nothing drops again, and no RECONNECTED comes. Curator 5.9.0 repairs that race
 * for LOST only (CURATOR-525); a SUSPENDED that lasts the session timeout ends the healthy session
 * ({@code ConnectionStateManager.checkSessionExpiration}).
 *
 * <p>Curator's framework takes the state of every event its default watcher gets for the connection's ({@code
 * validateConnection}): an event about a node arrives only over a live connection, so it posts RECONNECTED, in order
 * with the handle's own connection events (a disconnect after it posts SUSPENDED after it). The nudge sets such a
 * watch on a node of this store's own, an ephemeral one next to the lock roots, and makes it fire (3 requests):
 * created (or, if a nudge before left it, deleted) fires the watch, then it is deleted. The store's RECONNECTED path
 * then checks every held node before its lease is HELD again, as after any reconnect.
 */
final class SuspendedNudge {

    private final String path;

    /** A nudge on the node {@code /distlock-nudge-<storeId>} under the client's namespace. */
    SuspendedNudge(String storeId) {
        this.path = ZooKeeperBackend.ROOT + "-nudge-" + storeId;
    }

    /**
     * Fires a watch of Curator's default watcher on our node.
     *
     * @throws Exception if the store cannot be asked (the connection dropped: its reconnect posts RECONNECTED)
     */
    void send(CuratorFramework client) throws Exception {
        if (client.checkExists().watched().forPath(path) == null) {
            client.create().withMode(CreateMode.EPHEMERAL).forPath(path); // fires the watch: NodeCreated
        }
        client.delete().quietly().forPath(path); // fires the watch if a nudge before left the node: NodeDeleted
    }
}
