package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.StaleFenceException;
import io.distlock.tck.fixture.StoreServers;
import java.net.URI;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/** {@link RedisFence} writes through a classic {@link Jedis} connection, the client many Jedis users hold. */
class RedisFenceClassicJedisTest {

    @Test
    void fencesWritesThroughAClassicJedis() {
        URI redis = URI.create(StoreServers.redis());
        String key = "distlock-test:fence-classic:" + UUID.randomUUID();
        try (Jedis jedis = new Jedis(redis.getHost(), redis.getPort())) {
            try {
                RedisFence fence = RedisFence.on(jedis);
                fence.hset(key, "status", "shipped", 7);
                assertThatThrownBy(() -> fence.hset(key, "status", "stale", 6))
                        .isInstanceOf(StaleFenceException.class);
                assertThat(jedis.hget(key, "status")).isEqualTo("shipped");
                assertThat(jedis.isConnected()).as("the fence leaves the connection open").isTrue();
            } finally {
                jedis.del(key);
            }
        }
    }
}
