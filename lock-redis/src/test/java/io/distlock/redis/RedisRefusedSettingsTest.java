package io.distlock.redis;

import io.distlock.LockStore;
import io.distlock.tck.RefusedSetting;
import io.distlock.tck.RefusedSettingRules;
import io.distlock.tck.TckHarness;
import io.distlock.tck.fixture.FreePorts;
import java.util.List;

/**
 * The kit's §22 for the Redis store: {@code restartGuard}, which the README says a Cluster cannot have (its marker
 * cannot share a slot with every lock), is refused on {@code redis-cluster://} however it is written. The store
 * reads its own options, so what it parses is what it would do; the refusal comes before any connection, so no
 * cluster is needed.
 */
class RedisRefusedSettingsTest extends TckHarness implements RefusedSettingRules {

    /** The spellings of {@code restartGuard=true} the store's option parser takes, on a Cluster URI. */
    static List<RefusedSetting> restartGuardOnCluster(String clusterUri) {
        String and = clusterUri.contains("?") ? "&" : "?";
        return List.of(new RefusedSetting("restartGuard", "=true", clusterUri + and + "restartGuard=true"),
                new RefusedSetting("restartGuard", "without a value", clusterUri + and + "restartGuard"),
                new RefusedSetting("restartGuard", "=TRUE", clusterUri + and + "restartGuard=TRUE"),
                new RefusedSetting("restartGuard", "value percent-encoded", clusterUri + and + "restartGuard=%74rue"));
    }

    @Override
    public List<RefusedSetting> refusedSettings() {
        return restartGuardOnCluster("redis-cluster://127.0.0.1:" + FreePorts.next() + ",127.0.0.1:"
                + FreePorts.next() + "?timeout=1s");
    }

    /** §22 opens only the URIs above; no rule here asks for a client. */
    @Override
    protected LockStore newClient() {
        throw new UnsupportedOperationException("this harness runs §22 only");
    }
}
