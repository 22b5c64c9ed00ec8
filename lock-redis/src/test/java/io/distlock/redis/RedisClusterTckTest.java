package io.distlock.redis;

import io.distlock.LockStore;
import io.distlock.tck.LockStoreTck;
import io.distlock.tck.NameLeftovers;
import io.distlock.tck.RefusedSetting;
import io.distlock.tck.SpoiledNameState;
import io.distlock.tck.fixture.FreePorts;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import redis.clients.jedis.HostAndPort;

/**
 * The whole compatibility kit against a 3-master Redis Cluster this test starts. Tagged slow (about a minute, more on
 * a loaded machine); {@link RedisClusterTest} checks the Cluster store in the default build.
 */
@Tag("slow")
class RedisClusterTckTest extends LockStoreTck {

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
        return LockStore.open(cluster.uri("timeout=2s"));
    }

    @Override
    protected String storeUri() {
        return cluster.uri("");
    }

    /**
     * Keys of names used once, counted with SCAN on every master; a release leaves its tombstone for 4 × the 2 s
     * timeout, the longest-lived key of a name.
     */
    @Override
    protected NameLeftovers nameLeftovers() {
        return new RedisNameLeftovers(cluster.nodes().stream().map(n -> new HostAndPort("127.0.0.1", n.port()))
                .toList(), RedisOptions.defaults().keyPrefix(), java.time.Duration.ofSeconds(8));
    }

    /** Lock keys and semaphore holder sets, turned into hashes on the master of their slot as an operator would. */
    @Override
    protected SpoiledNameState spoiledNameState() {
        return new RedisSpoiledNames(cluster.nodes().stream().map(n -> new HostAndPort("127.0.0.1", n.port()))
                .toList(), RedisOptions.defaults().keyPrefix(), false);
    }

    @Override
    protected String unreachableStoreUri() {
        return "redis-cluster://127.0.0.1:" + FreePorts.next() + ",127.0.0.1:" + FreePorts.next() + "?timeout=1s";
    }

    /** {@code restartGuard}, which a Cluster cannot have, in every spelling the store takes (§22). */
    @Override
    public List<RefusedSetting> refusedSettings() {
        return RedisRefusedSettingsTest.restartGuardOnCluster(cluster.uri("timeout=2s"));
    }
}
