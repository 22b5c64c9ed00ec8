package io.distlock.zookeeper;

import io.distlock.LockStore;
import io.distlock.tck.LockStoreTck;
import io.distlock.tck.StoreCapabilities;
import java.time.Duration;
import org.apache.curator.test.TestingCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The whole compatibility kit against a real 3-node ZooKeeper ensemble (Curator's TestingCluster): clients spread
 * over its members, so the rules also check ordering and fencing across servers. The outage rule is left to
 * {@link ZooKeeperTckTest} (stopping a whole ensemble shows nothing more); leader loss is in
 * {@link LeaderFailoverTest}.
 */
class ZooKeeperEnsembleTckTest extends LockStoreTck {

    static final Duration SESSION = Duration.ofSeconds(4);
    static final Duration CONNECTION = Duration.ofSeconds(4);

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
    protected LockStore newClient() {
        return LockStore.open(storeUri());
    }

    @Override
    protected StoreCapabilities capabilities() {
        return StoreCapabilities.sessionBound(SESSION);
    }

    /**
     * §12.3 holds 2,000 names here, not 10,000: every lock node and parent is a quorum write on three in-process
     * servers sharing two cores with the rest of the build. {@link ZooKeeperTckTest} runs the full 10,000 against a
     * single server.
     */
    @Override
    public int manyNamesCount() {
        return 2_000;
    }

    @Override
    protected String storeUri() {
        return TestServers.uri(cluster.getConnectString(), "tck-ensemble", SESSION, CONNECTION);
    }
}
