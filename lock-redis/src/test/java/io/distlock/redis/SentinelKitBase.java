package io.distlock.redis;

import io.distlock.LockStore;
import io.distlock.tck.StoreCapabilities;
import io.distlock.tck.TckHarness;

/**
 * Kit rules through Sentinel, on a master, replica and three Sentinels that each test class owns (a
 * {@link ClassFixture} of its own, since this module runs test classes concurrently). Subclasses pick the rule groups.
 */
abstract class SentinelKitBase extends TckHarness {

    /** The class's Sentinel set-up. */
    abstract RedisSentinelFixture sentinel();

    @Override
    protected StoreCapabilities capabilities() {
        return StoreCapabilities.timeBound();
    }

    @Override
    protected LockStore newClient() {
        return LockStore.open(sentinel().uri("timeout=2s"));
    }

    @Override
    protected String storeUri() {
        return sentinel().uri("");
    }
}
