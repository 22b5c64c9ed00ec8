package io.distlock.redis;

import io.distlock.LockStore;
import io.distlock.tck.LockStoreTck;
import io.distlock.tck.StoreCapabilities;
import io.distlock.tck.fixture.FreePorts;

/**
 * The compatibility kit against the shared Redis server (127.0.0.1:6379, or {@code DISTLOCK_REDIS_URI}). The
 * availability rule on a closed port runs here; the outage rule runs in {@link RedisOutageTckTest}.
 */
class RedisTckTest extends LockStoreTck {

    static final String URI = System.getenv().getOrDefault("DISTLOCK_REDIS_URI", "redis://127.0.0.1:6379");

    @Override
    protected LockStore newClient() {
        return LockStore.open(URI);
    }

    @Override
    protected StoreCapabilities capabilities() {
        return StoreCapabilities.timeBound();
    }

    @Override
    protected String storeUri() {
        return URI;
    }

    @Override
    protected String unreachableStoreUri() {
        return "redis://127.0.0.1:" + FreePorts.next() + "?timeout=1s";
    }
}
