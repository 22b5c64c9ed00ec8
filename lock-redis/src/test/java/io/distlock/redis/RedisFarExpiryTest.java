package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LockStore;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.params.SetParams;

/**
 * A lock key whose expiry an operator set centuries ahead (its PTTL in nanoseconds is past {@link Long#MAX_VALUE}):
 * a timed waiter sleeps until its wait ends, it does not send attempts in a loop.
 */
class RedisFarExpiryTest {

    @RegisterExtension
    static final OwnRedisServer server = new OwnRedisServer();

    @Test
    void aWaiterOnAHolderThatExpiresInCenturiesSleepsInsteadOfHammeringTheServer() throws InterruptedException {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = LockStore.open(server.uri("timeout=1s"))) {
            store.lock("warm-up").tryAcquire().orElseThrow().release(); // the release subscription is up
            probe.raw().set("distlock:{far}", "someone|else", SetParams.setParams().px(10_000_000_000_000L));
            long before = probe.calls("evalsha");
            assertThat(store.lock("far").tryAcquire(Duration.ofMillis(500))).isEmpty();
            assertThat(probe.calls("evalsha") - before).as("acquire scripts run in a 500 ms wait")
                    .isLessThanOrEqualTo(5);
        }
    }
}
