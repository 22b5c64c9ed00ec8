package io.distlock.redis;

import io.distlock.LockStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A test class on a fresh {@link ClusterBehindFaultProxy} per test: the one-node Cluster whose proxy can swallow a
 * reply, so Jedis's Cluster client re-sends the command.
 */
abstract class ClusterResendTestBase {

    ClusterBehindFaultProxy cluster;
    FaultProxy proxy;
    RedisProbe probe;

    @BeforeEach
    void startCluster() throws Exception {
        cluster = new ClusterBehindFaultProxy();
        proxy = cluster.proxy();
        probe = cluster.probe();
    }

    @AfterEach
    void stopCluster() throws Exception {
        cluster.close();
    }

    /** A Cluster store through the proxy. */
    LockStore open() {
        return cluster.open();
    }
}
