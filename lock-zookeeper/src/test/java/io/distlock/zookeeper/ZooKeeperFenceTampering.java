package io.distlock.zookeeper;

import io.distlock.LockStore;
import io.distlock.tck.FenceStateTampering;
import java.nio.charset.StandardCharsets;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

/**
 * The kit's hand on what ZooKeeper keeps of a name (§19), as an operator's {@code deleteall} or {@code set} in
 * {@code zkCli}: the lock's or the semaphore's parent node, deleted with whatever children it has, or its data (the
 * last token, {@link FenceFloor}) overwritten; a parent that is not there (nobody queued since the server reaped it)
 * takes no value.
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
    public boolean overwriteLock(String name, ForeignValue value) throws Exception {
        return overwrite(ZooKeeperBackend.parentPath(name), value);
    }

    @Override
    public boolean overwriteSemaphore(String name, ForeignValue value) throws Exception {
        return overwrite(ZooKeeperPermits.parentPath(name), value);
    }

    /** A standalone in-process server of its own whose data directory can be copied and put back. */
    @Override
    public RestorableStore restorableStore() throws Exception {
        return RestorableServer.start();
    }

    private boolean overwrite(String path, ForeignValue value) throws Exception {
        String text = switch (value) {
            case ZERO -> "0";
            case NEGATIVE -> "-5";
            case FAR_AHEAD -> Long.toString(Long.MAX_VALUE / 4);
            case LARGEST -> Long.toString(Long.MAX_VALUE);
            case OUT_OF_RANGE -> "1e19";
            case NOT_A_NUMBER -> "abc";
            case NOT_FINITE -> "nan";
            case EMPTY -> "";
        };
        try {
            curator.setData().forPath(path, text.getBytes(StandardCharsets.US_ASCII));
            return true;
        } catch (KeeperException.NoNodeException e) {
            return false;
        }
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
