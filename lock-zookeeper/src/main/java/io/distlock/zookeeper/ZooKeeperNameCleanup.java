package io.distlock.zookeeper;

import io.distlock.StoreUnavailableException;
import io.distlock.spi.StoreUri;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;

/**
 * Deletes every node a ZooKeeper store keeps for the names starting with a prefix (the lock and semaphore parents
 * with their holders' and waiters' nodes): for a program whose names are its own, such as a demo run or a test, to
 * leave nothing behind. It connects as the store would (chroot, credentials, TLS) and never touches another name.
 *
 * <p>A name's parent node carries its fencing counter, so deleting it lets a later holder of that same name start
 * from the store's floor again: use it only for names nothing will ever take again (a prefix unique to one run).
 */
public final class ZooKeeperNameCleanup {

    private ZooKeeperNameCleanup() {
    }

    /**
     * Deletes the nodes of every name starting with {@code namePrefix} in the store {@code storeUri} opens; returns
     * how many names' nodes were deleted.
     *
     * @throws IllegalArgumentException if the prefix is empty or the URI is not a ZooKeeper store's
     * @throws StoreUnavailableException if the ensemble is not reached, or refuses a read or a deletion
     */
    public static long deleteNames(String storeUri, String namePrefix) {
        if (namePrefix == null || namePrefix.isEmpty()) {
            throw new IllegalArgumentException("a name prefix to delete must be non-empty, got '" + namePrefix + "'");
        }
        ZooKeeperUri uri = ZooKeeperUri.parse(StoreUri.parse(storeUri));
        String encodedPrefix = NodeNames.encode(namePrefix); // encoding is per character, so prefixes stay prefixes
        try (CuratorFramework client = CuratorClients.connect(uri)) {
            long deleted = 0;
            for (String root : List.of(ZooKeeperBackend.ROOT, ZooKeeperPermits.ROOT)) {
                if (client.checkExists().forPath(root) == null) {
                    continue;
                }
                for (String child : client.getChildren().forPath(root)) {
                    if (child.startsWith(encodedPrefix)) {
                        client.delete().deletingChildrenIfNeeded().forPath(ZKPaths.makePath(root, child));
                        deleted++;
                    }
                }
            }
            return deleted;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("interrupted while deleting names from ZooKeeper store " + uri, e);
        } catch (StoreUnavailableException e) {
            throw e;
        } catch (Exception e) {
            throw new StoreUnavailableException("could not delete names from ZooKeeper store " + uri + ": " + e, e);
        }
    }
}
