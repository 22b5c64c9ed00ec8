package io.distlock.zookeeper;

import io.distlock.StoreUnavailableException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryUntilElapsed;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;

/**
 * Builds and connects the Curator client of one store. Operations retry for up to the connection timeout (so a
 * blip is ridden out, and an outage reported as unavailable within that time); digest credentials, if any, are sent
 * at connect and every node gets a creator-only ACL.
 */
final class CuratorClients {

    private static final int RETRY_SLEEP_MS = 100;

    private CuratorClients() {
    }

    /**
     * The ACL the client {@link #connect} makes for {@code uri} gives a node it creates: its ACL provider's, {@link
     * DigestAcls} with credentials, else Curator's default (open). The backend's creates on the plain ZooKeeper
     * handle use it.
     */
    static List<ACL> acl(ZooKeeperUri uri) {
        return uri.user() != null ? new DigestAcls().getAclForPath(ZooKeeperBackend.ROOT)
                : ZooDefs.Ids.OPEN_ACL_UNSAFE;
    }

    /**
     * A started client, connected within the URI's connection timeout.
     *
     * @throws StoreUnavailableException if it did not connect in time
     */
    static CuratorFramework connect(ZooKeeperUri uri) {
        int connectionMs = (int) uri.connectionTimeout().toMillis();
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
                .connectString(uri.connectString())
                .sessionTimeoutMs((int) uri.sessionTimeout().toMillis())
                .connectionTimeoutMs(connectionMs)
                .retryPolicy(new RetryUntilElapsed(connectionMs, RETRY_SLEEP_MS))
                .ensembleTracker(false)
                .defaultData(new byte[0])
                .namespace(uri.chroot());
        if (uri.tls() != null) {
            builder.zkClientConfig(uri.tls().clientConfig());
        }
        if (uri.user() != null) {
            builder.authorization("digest", (uri.user() + ":" + uri.password()).getBytes(StandardCharsets.UTF_8))
                    .aclProvider(new DigestAcls());
        }
        CuratorFramework client = builder.build();
        boolean connected = false;
        try {
            client.start();
            connected = client.blockUntilConnected(connectionMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            client.close();
            throw new StoreUnavailableException("ZooKeeper store " + uri + " cannot be reached: " + e.getMessage(), e);
        }
        if (!connected) {
            client.close();
            throw new StoreUnavailableException("ZooKeeper store " + uri + " did not answer within the connection "
                    + "timeout of " + uri.connectionTimeout());
        }
        return client;
    }
}
