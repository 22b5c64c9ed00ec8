package io.distlock.zookeeper;

import io.distlock.spi.Grant;
import io.distlock.spi.LeaseEvents;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;

/**
 * The nodes this backend holds locks with, each watched so that a node deleted behind its holder's back (an
 * operator's force-release, say) is reported lost at once instead of at release. After a reconnect,
 * {@link #verify} checks that every node still exists and still belongs to our session.
 */
final class HeldNodes implements Watcher {

    private static final System.Logger LOG = System.getLogger(HeldNodes.class.getName());

    private final Map<String, Grant> byPath = new ConcurrentHashMap<>();
    private volatile LeaseEvents events = LeaseEvents.NONE;

    void attach(LeaseEvents events) {
        this.events = events;
    }

    /** Remembers a held node and watches it, without waiting for the watch to be set. */
    void add(CuratorFramework client, LockNode node, Grant grant) {
        byPath.put(node.path(), grant);
        try {
            client.checkExists().usingWatcher(this).inBackground((c, event) -> {
                if (event.getResultCode() == KeeperException.Code.NONODE.intValue()) {
                    gone(node.path(), "its node " + node.path() + " was deleted right after it was granted");
                }
            }).forPath(node.path());
        } catch (Exception e) {
            LOG.log(Level.DEBUG, "could not watch " + node.path() + "; loss is then found at release", e);
        }
    }

    /** Forgets a node we are about to delete ourselves; returns its grant or null if it was no longer held. */
    Grant remove(String path) {
        return byPath.remove(path);
    }

    boolean contains(String path) {
        return byPath.containsKey(path);
    }

    /** Forgets every node: the session that owned them is gone. */
    void clear() {
        byPath.clear();
    }

    @Override
    public void process(WatchedEvent event) {
        if (event.getType() == Event.EventType.NodeDeleted && event.getPath() != null) {
            gone(event.getPath(), "its node " + event.getPath() + " was deleted behind its back "
                    + "(force-released by an operator, or removed by another client)");
        }
    }

    /**
     * Checks that every held node still exists and belongs to session {@code sessionId}; reports the others lost.
     *
     * @throws Exception if the store cannot be asked
     */
    void verify(CuratorFramework client, long sessionId) throws Exception {
        for (String path : List.copyOf(byPath.keySet())) {
            Stat stat = client.checkExists().usingWatcher(this).forPath(path);
            if (stat == null) {
                gone(path, "its node " + path + " was gone when the connection came back");
            } else if (stat.getEphemeralOwner() != sessionId) {
                gone(path, "its node " + path + " belongs to another session after reconnecting");
            }
        }
    }

    private void gone(String path, String reason) {
        Grant grant = byPath.remove(path);
        if (grant != null) {
            events.lost(grant, reason);
        }
    }
}
