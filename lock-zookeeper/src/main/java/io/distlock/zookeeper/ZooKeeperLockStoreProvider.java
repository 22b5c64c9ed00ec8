package io.distlock.zookeeper;

import io.distlock.spi.LockBackend;
import io.distlock.spi.LockStoreProvider;
import io.distlock.spi.StoreUri;
import java.util.Set;

/**
 * Opens {@code zookeeper://} and {@code zk://} URIs:
 * {@code zookeeper://[user:password@]h1:2181,h2:2181/chroot?sessionTimeout=30s&connectionTimeout=10s}. Each store
 * has its own Curator client and so its own ZooKeeper session, which is what its leases are bound to.
 */
public final class ZooKeeperLockStoreProvider implements LockStoreProvider {

    @Override
    public Set<String> schemes() {
        return Set.of("zookeeper", "zk");
    }

    @Override
    public LockBackend open(StoreUri uri) {
        ZooKeeperUri parsed = ZooKeeperUri.parse(uri);
        return new ZooKeeperBackend(CuratorClients.connect(parsed), parsed.redacted(), parsed.connectionTimeout(),
                parsed.sessionTimeout(), CuratorClients.acl(parsed));
    }
}
