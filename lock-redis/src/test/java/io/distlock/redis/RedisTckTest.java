package io.distlock.redis;

import io.distlock.LockStore;
import io.distlock.tck.LockStoreTck;
import io.distlock.tck.StoreCapabilities;
import io.distlock.tck.fixture.FreePorts;
import io.distlock.tck.fixture.StoreServers;

/**
 * The compatibility kit against the Redis server the kit's fixture finds ({@code DISTLOCK_REDIS_URI}, Testcontainers,
 * this machine's 127.0.0.1:6379, or a redis-server it starts: see {@link StoreServers}). The
 * availability rule on a closed port runs here; the outage rule runs in {@link RedisOutageTckTest}.
 */
class RedisTckTest extends LockStoreTck {

    static final String URI = StoreServers.redis();

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
