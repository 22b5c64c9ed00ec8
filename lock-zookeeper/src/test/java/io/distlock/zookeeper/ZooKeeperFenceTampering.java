package io.distlock.zookeeper;

import io.distlock.LockStore;
import io.distlock.tck.FenceStateTampering;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

/**
 * The kit's hand on what ZooKeeper keeps of a name (§19), as an operator's {@code deleteall} in {@code zkCli}: the
 * lock's or the semaphore's parent node, with whatever children it has. Tokens are the czxids the server gives each
 * new node, so no value an operator writes is one: overwriting does not apply.
 */
final class ZooKeeperFenceTampering implements FenceStateTampering {

    private final CuratorFramework curator;

    /** Tampering through the Curator client of {@code store} (rooted at the store's chroot). */
    ZooKeeperFenceTampering(LockStore store) {
        this.curator = TestServers.backend(store).curator();
    }

    @Override
    public boolean forgetLock(String name) throws Exception {
        return deleteAll(ZooKeeperBackend.parentPath(name));
    }

    @Override
    public boolean overwriteLock(String name, ForeignValue value) {
        return false;
    }

    @Override
    public boolean forgetSemaphore(String name) throws Exception {
        return deleteAll(ZooKeeperPermits.parentPath(name));
    }

    private boolean deleteAll(String path) throws Exception {
        try {
            curator.delete().deletingChildrenIfNeeded().forPath(path);
        } catch (KeeperException.NoNodeException e) {
            // already gone (a container node the server reaped): forgotten all the same
        }
        return true;
    }
}
