package io.distlock.zookeeper;

import org.apache.curator.test.TestingCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The compatibility kit against a real 3-node ZooKeeper ensemble (Curator's TestingCluster): clients spread over its
 * members, so the rules also check ordering and fencing across servers. The outage rule is left to
 * {@link ZooKeeperTckTest} (stopping a whole ensemble shows nothing more); leader loss is in
 * {@link LeaderFailoverTest}.
 */
abstract class EnsembleTckBase extends ZooKeeperTckBase {

    private static TestingCluster cluster;

    @BeforeAll
    static void startEnsemble() throws Exception {
        cluster = TestServers.cluster(3);
        cluster.start();
    }

    @AfterAll
    static void stopEnsemble() throws Exception {
        cluster.close();
    }

    @Override
    protected String storeUri() {
        return TestServers.uri(cluster.getConnectString(), "tck-ensemble", SESSION, CONNECTION);
    }
}
