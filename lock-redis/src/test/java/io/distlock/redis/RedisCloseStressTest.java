package io.distlock.redis;

import io.distlock.tck.CloseStressTestBase;
import io.distlock.tck.fixture.StoreServers;
import java.util.UUID;

/** The kit's close stress (§23, many rounds) against the shared Redis, under a key prefix of this run's own. */
class RedisCloseStressTest extends CloseStressTestBase {

    @Override
    protected String storeUri() {
        return StoreServers.redis() + "?keyPrefix=close-stress-" + UUID.randomUUID().toString().substring(0, 8) + ":";
    }
}
