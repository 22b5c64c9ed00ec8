package io.distlock.zookeeper;

import io.distlock.tck.NameLeftovers;
import java.time.Duration;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * The kit's count of what ZooKeeper keeps of names used once (§26): the lock and semaphore parents under the store's
 * chroot whose names start with a prefix, with their children. The parents are CONTAINER nodes, which the server
 * deletes at its container check once emptied, so the grace is that check's interval plus a margin.
 */
final class ZooKeeperNameLeftovers implements NameLeftovers {

    private final CuratorFramework raw;
    private final Duration grace;

    /**
     * Counts through {@code raw}, a client rooted at the store's chroot, on a server checking containers every
     * {@code check}.
     */
    ZooKeeperNameLeftovers(CuratorFramework raw, Duration check) {
        this.raw = raw;
        this.grace = check.multipliedBy(4).plusSeconds(2);
    }

    @Override
    public Duration grace() {
        return grace;
    }

    @Override
    public long count(String namePrefix) throws Exception {
        String encoded = NodeNames.encode(namePrefix);
        long left = 0;
        for (String root : List.of(ZooKeeperBackend.ROOT, ZooKeeperPermits.ROOT)) {
            List<String> children;
            try {
                children = raw.getChildren().forPath(root);
            } catch (KeeperException.NoNodeException e) {
                continue;
            }
            for (String child : children) {
                if (child.startsWith(encoded)) {
                    left += withChildren(raw, root + "/" + child);
                }
            }
        }
        return left;
    }

    /** What ZooKeeper keeps of exactly {@code name}: its lock and semaphore parents with their children; 0: nothing. */
    static long of(CuratorFramework raw, String name) throws Exception {
        return withChildren(raw, ZooKeeperBackend.parentPath(name))
                + withChildren(raw, ZooKeeperPermits.parentPath(name));
    }

    private static long withChildren(CuratorFramework raw, String path) throws Exception {
        Stat stat = raw.checkExists().forPath(path);
        return stat == null ? 0 : 1 + stat.getNumChildren();
    }

    /** An operator's floor for lock {@code name}: {@link #floorAhead}. */
    @Override
    public long pushLockCounterAhead(String name, Duration ahead) throws Exception {
        return floorAhead(raw, ZooKeeperBackend.parentPath(name), ahead);
    }

    /**
     * Gives the free name whose parent is {@code parent} a token floor ({@link FenceFloor}) {@code ahead} of the
     * server clock in microseconds (the in-process server shares this JVM's clock), as an operator would with
     * {@code zkCli}: {@code delete} of the emptied parent, if there, then {@code create -c} of it holding the floor
     * ({@code set} if it is not empty). Not a {@code set} into the emptied parent: the server deletes an emptied
     * CONTAINER node at any container check, with a floor written into it before a grant read it; a CONTAINER node
     * that never had a child is kept.
     *
     * @return the floor written
     */
    static long floorAhead(CuratorFramework raw, String parent, Duration ahead) throws Exception {
        long floor = System.currentTimeMillis() * 1000 + ahead.toNanos() / 1000;
        for (int attempt = 0; attempt < 10; attempt++) {
            try {
                raw.delete().forPath(parent);
            } catch (KeeperException.NoNodeException gone) {
                // reaped already, or never made
            } catch (KeeperException.NotEmptyException kept) {
                raw.setData().forPath(parent, FenceFloor.encode(floor)); // pinned or queued: the server keeps it
                return floor;
            }
            try {
                raw.create().creatingParentContainersIfNeeded().withMode(CreateMode.CONTAINER)
                        .forPath(parent, FenceFloor.encode(floor));
                return floor;
            } catch (KeeperException.NodeExistsException madeMeanwhile) {
                // a grant made it again between: delete it again
            }
        }
        throw new IllegalStateException("the parent " + parent + " was made again at each of 10 attempts to write it");
    }
}
