package io.distlock.redis;

import io.distlock.LockStore;
import io.distlock.tck.LockStoreTck;
import io.distlock.tck.RefusedSetting;
import io.distlock.tck.StoreCapabilities;
import io.distlock.tck.fixture.FreePorts;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

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
    protected StoreCapabilities capabilities() {
        return StoreCapabilities.timeBound();
    }

    @Override
    protected String storeUri() {
        return cluster.uri("");
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
