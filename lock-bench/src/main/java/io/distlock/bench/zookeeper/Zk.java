package io.distlock.bench.zookeeper;

import io.distlock.bench.core.HostPort;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/** Connecting Curator clients the same way for every ZooKeeper contender, and naming nodes after lock names. */
final class Zk {

    private Zk() {
    }

    /** A started Curator client connected to {@code server}, with a 30 s session. */
    static CuratorFramework connect(HostPort server) throws InterruptedException {
        CuratorFramework curator = CuratorFrameworkFactory.builder()
                .connectString(server.toString())
                .sessionTimeoutMs(30_000)
                .connectionTimeoutMs(15_000)
                .retryPolicy(new ExponentialBackoffRetry(100, 3))
                .build();
        curator.start();
        if (!curator.blockUntilConnected(30, TimeUnit.SECONDS)) {
            curator.close();
            throw new IllegalStateException("could not connect to ZooKeeper at " + server + " within 30 s");
        }
        return curator;
    }

    /** A lock name as one path segment: the benchmark's names hold only letters, digits, ':' and '-'. */
    static String nodeName(String lockName) {
        return lockName.replace('/', '_');
    }
}
