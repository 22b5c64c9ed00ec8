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
 * belongs to our session.
 */
final class HeldNodes implements Watcher {

    /** How often the sweep watches newly held nodes. */
    static final long WATCH_DELAY_MS = 250;

    private static final System.Logger LOG = System.getLogger(HeldNodes.class.getName());

    /** Held nodes by their full path (chroot included, as ZooKeeper reports it in watch events). */
    private final Map<String, Entry> byPath = new ConcurrentHashMap<>();
    private final CuratorFramework client;
    private final ScheduledThreadPoolExecutor timer;
    private volatile LeaseEvents events = LeaseEvents.NONE;

    HeldNodes(CuratorFramework client, String storeName) {
        this.client = client;
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

    /** Remembers a held node; the next sweep but one watches it if it is still held. */
    void add(LockNode node, Grant grant) {
        byPath.put(fullPath(node.path()), new Entry(grant));
    }

    private void watchNewNodes() {
        for (Map.Entry<String, Entry> held : byPath.entrySet()) {
            Entry entry = held.getValue();
            if (entry.seen) {
                if (!entry.watched) {
                    entry.watched = true;
                    watch(held.getKey());
                }
            } else {
                entry.seen = true; // held at this sweep: watched at the next one if still held
            }
        }
    }

    private void watch(String path) {
        try {
            // getData, not exists: on a node that is already gone it sets no watch that would wait for a creation
            client.getZookeeperClient().getZooKeeper().getData(path, this, (rc, p, ctx, data, stat) -> {
                if (rc == KeeperException.Code.NONODE.intValue()) {
                    gone(p, "its node was deleted behind its back");
                }
            }, null);
        } catch (Exception e) {
            LOG.log(Level.DEBUG, "could not watch " + path + "; a loss is then found at release", e);
        }
    }

    /** Forgets a node we are about to delete ourselves; returns its grant or null if it was no longer held. */
    Grant remove(String path) {
        Entry entry = byPath.remove(fullPath(path));
        return entry == null ? null : entry.grant;
    }

    boolean contains(String path) {
        return byPath.containsKey(fullPath(path));
    }

    /** Forgets every node: the session that owned them is gone. */
    void clear() {
        byPath.clear();
    }

    @Override
    public void process(WatchedEvent event) {
        if (event.getType() == Event.EventType.NodeDeleted && event.getPath() != null) {
            gone(event.getPath(), "its node was deleted behind its back "
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
                zk.getData(path, this, stat); // watched again: watches set before the disconnect may be gone
            } catch (KeeperException.NoNodeException e) {
                gone(path, "its node was gone when the connection came back");
                continue;
            }
            if (stat.getEphemeralOwner() != sessionId) {
                gone(path, "its node belongs to another session after reconnecting");
            }
        }
    }

    void close() {
        timer.shutdownNow();
    }

    private void gone(String path, String reason) {
        Entry entry = byPath.remove(path);
        if (entry != null) {
            events.lost(entry.grant, reason);
        }
    }

    private String fullPath(String path) {
        return ZKPaths.fixForNamespace(client.getNamespace(), path);
    }

    /** A held node's grant and how far the sweep got with it (touched by the sweep thread only). */
    private static final class Entry {
        final Grant grant;
        boolean seen;
        boolean watched;

        Entry(Grant grant) {
            this.grant = grant;
        }
    }
}
