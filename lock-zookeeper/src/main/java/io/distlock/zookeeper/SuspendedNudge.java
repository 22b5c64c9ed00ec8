package io.distlock.zookeeper;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.Watcher;

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
 * validateConnection}): an event the server's answer brings arrives only over a live connection, so it posts
 * RECONNECTED, in order with the handle's own connection events (a disconnect after it posts SUSPENDED after it). The
 * nudge sets an exists watch of the default watcher on a path of this store's own, {@code /distlock-nudge-<store id>}
 * next to the lock roots (never created), and has the server remove it (2 requests, neither a write: no transaction,
 * no node, no permission needed); ZooKeeper hands the removal to the watcher as {@code DataWatchRemoved} with state
 * SyncConnected, on its event thread once the answer came (a removal that fails fires nothing; the watch it leaves
 * is taken by the next nudge's). The store's RECONNECTED path then checks every held node before its lease is HELD
 * again, as after any reconnect.
 */
final class SuspendedNudge {

    private final String path;

    /** A nudge on the path {@code /distlock-nudge-<storeId>} under the client's namespace (no node is made). */
    SuspendedNudge(String storeId) {
        this.path = ZooKeeperBackend.ROOT + "-nudge-" + storeId;
    }

    /**
     * Sets a watch of Curator's default watcher on our path and has the server remove it, which fires it.
     *
     * @throws Exception if the store cannot be asked (the connection dropped: its reconnect posts RECONNECTED)
     */
    void send(CuratorFramework client) throws Exception {
        client.checkExists().watched().forPath(path);
        // the server's answer comes back as DataWatchRemoved (SyncConnected) to the default watcher
        client.watchers().removeAll().ofType(Watcher.WatcherType.Any).forPath(path);
    }
}
