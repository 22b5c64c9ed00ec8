package io.distlock.zookeeper;

import io.distlock.LockStore;
import io.distlock.tck.SpoiledNameState;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;

/**
 * The kit's hand on what ZooKeeper keeps of a holder (§20), as an operator in {@code zkCli} would spoil it: each
 * node under the lock's or the semaphore's parent is deleted and made again at the same path with odd data, by the
 * kit's own session (an ephemeral node, so it goes with the kit's client), so it is no longer the holder's node.
 */
final class ZooKeeperSpoiledNames implements SpoiledNameState {

    private static final byte[] ODD = "spoiled by an operator".getBytes(StandardCharsets.UTF_8);

    private final CuratorFramework curator;

    /** Spoiling through the Curator client of {@code store} (rooted at the store's chroot). */
    ZooKeeperSpoiledNames(LockStore store) {
        this.curator = TestServers.backend(store).curator();
    }

    @Override
    public boolean spoilLock(String name) throws Exception {
        return respawnChildren(ZooKeeperBackend.parentPath(name));
    }

    @Override
    public boolean spoilSemaphore(String name) throws Exception {
        return respawnChildren(ZooKeeperPermits.parentPath(name));
    }

    private boolean respawnChildren(String parent) throws Exception {
        List<String> children = curator.getChildren().forPath(parent);
        if (children.isEmpty()) {
            throw new IllegalStateException("no holder node under " + parent + " to spoil");
        }
        for (String child : children) {
            String path = parent + "/" + child;
            curator.delete().forPath(path);
            curator.create().withMode(CreateMode.EPHEMERAL).forPath(path, ODD);
        }
        return true;
    }
}
