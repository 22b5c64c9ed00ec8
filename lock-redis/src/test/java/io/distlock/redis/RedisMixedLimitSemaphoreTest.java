package io.distlock.redis;

import io.distlock.tck.MixedLimitSemaphores;
import io.distlock.tck.fixture.StoreServers;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Three clients of the real Redis server on one semaphore, limits 2 and 3 in turn, waits and delayed releases. */
class RedisMixedLimitSemaphoreTest {

    @Test
    void oneLimitAndAtMostThatManyHoldersAcrossClients() throws Exception {
        new MixedLimitSemaphores().run(StoreServers.redis(), "mixed-" + UUID.randomUUID(), 3, 6);
    }
}
