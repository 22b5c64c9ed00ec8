package org.apache.zookeeper;

import java.util.Map;
import java.util.Set;

/**
 * Counts the watchers a ZooKeeper client keeps on its side (its watch manager's own tables, reached from ZooKeeper's
 * package as its tests do): the memory a leaked watcher costs, which the server's per-connection watch count does not
 * show because the server keeps one watch per path and connection however many watchers the client registered.
 */
public final class ClientWatches {

    private ClientWatches() {
    }

    /** Data watchers (set by getData) registered in {@code zk}, counted one per watcher object and path. */
    public static int dataWatchers(ZooKeeper zk) {
        return count(zk.getWatchManager().getDataWatches());
    }

    /** Exists watchers registered in {@code zk}. */
    public static int existWatchers(ZooKeeper zk) {
        return count(zk.getWatchManager().getExistWatches());
    }

    /** Child watchers (set by getChildren) registered in {@code zk}. */
    public static int childWatchers(ZooKeeper zk) {
        return count(zk.getWatchManager().getChildWatches());
    }

    /** The paths {@code zk} keeps child watchers on (set by getChildren). */
    public static Set<String> childWatchedPaths(ZooKeeper zk) {
        Map<String, Set<Watcher>> watches = zk.getWatchManager().getChildWatches();
        synchronized (watches) {
            return Set.copyOf(watches.keySet());
        }
    }

    /** Persistent recursive watchers (set by addWatch) registered in {@code zk}. */
    public static int persistentRecursiveWatchers(ZooKeeper zk) {
        return count(zk.getWatchManager().getPersistentRecursiveWatches());
    }

    private static int count(Map<String, Set<Watcher>> watches) {
        synchronized (watches) { // the watch manager guards each table with its own monitor
            return watches.values().stream().mapToInt(Set::size).sum();
        }
    }
}
