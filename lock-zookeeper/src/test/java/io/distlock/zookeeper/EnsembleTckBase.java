package io.distlock.zookeeper;

import io.distlock.LockStore;
import io.distlock.tck.LockStoreTck;
import io.distlock.tck.StoreCapabilities;
import io.distlock.tck.WaitResources;
import java.time.Duration;
import org.apache.curator.test.TestingCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The compatibility kit against a real 3-node ZooKeeper ensemble (Curator's TestingCluster): clients spread over its
 * members, so the rules also check ordering and fencing across servers. The outage rule is left to
 * {@link ZooKeeperTckTest} (stopping a whole ensemble shows nothing more); leader loss is in
 * {@link LeaderFailoverTest}.
 */
abstract class EnsembleTckBase extends LockStoreTck {

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

    /** A client's operations give up after the URI's connection timeout (see {@link WaitBudget}). */
    @Override
    protected Duration operationTimeout() {
        return CONNECTION;
    }

    /** The watchers the client keeps for its waits: a timed-out wait must take its watch with it. */
    @Override
    protected WaitResources waitResources() {
        return TestServers::clientWatchers;
    }

    @Override
    protected String storeUri() {
        return TestServers.uri(cluster.getConnectString(), "tck-ensemble", SESSION, CONNECTION);
    }
}
