package io.distlock.redis;

import io.distlock.LockStore;
import io.distlock.tck.RacesAndBoundsRules;
import io.distlock.tck.TckHarness;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/**
 * The kit's §15 rules (races and bounds) through a 3-master Cluster, with clients of two pooled connections per node
 * so that §15.5's interrupted releases wait for a connection of a node's pool (DEFECTS S88, S92), as
 * {@link RedisSmallPoolTckTest} does on a single server. Tagged slow, as {@link RedisClusterTckTest}: it starts a
 * Cluster of its own.
 */
@Tag("slow")
class RedisClusterRacesTest extends TckHarness implements RacesAndBoundsRules {

    private static RedisClusterFixture cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = RedisClusterFixture.start(3);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Override
    protected LockStore newClient() {
        return LockStore.open(cluster.uri("timeout=2s&poolSize=2"));
    }

    @Override
    protected String storeUri() {
        return cluster.uri("");
    }
}
