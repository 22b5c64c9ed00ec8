package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.spi.OwnerTokens;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Adversarial: a re-sent acquire (Jedis's Cluster client sends a script again when its reply was lost, up to twice
 * the 2 s {@code timeout} later) finds its own value and gives the lock key a whole new lease; the counter must
 * outlive that lease too (kit: the admin view and force-release by token read the holder's token there).
 */
class RedisResentAcquireCounterTest {

    @RegisterExtension
    static final OwnRedisServer server = new OwnRedisServer();

    @Test
    void aReSentAcquireKeepsTheCounterPastTheLeaseItRenews() throws Exception {
        try (RedisProbe probe = new RedisProbe(server.port())) {
            RedisKeys keys = new RedisKeys("distlock:");
            LockCalls calls = new LockCalls(keys, false, Duration.ofMinutes(1), null);
            LockCalls.Call acquire = calls.acquire("resent", OwnerValue.of(OwnerTokens.newToken()),
                    Duration.ofSeconds(10));
            long fence = (Long) RedisScripts.ACQUIRE.run(probe.raw(), acquire);
            // the first reply is lost; the client's retry reaches the server after its socket timeout (2 s) and more:
            // wait until the counter's own retention shows 3 s gone by on the server's clock
            long retained = probe.raw().pttl(keys.fence("resent"));
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                    .until(() -> probe.raw().pttl(keys.fence("resent")) <= retained - 3_000);
            assertThat((Long) RedisScripts.ACQUIRE.run(probe.raw(), acquire)).as("the re-send's answer")
                    .isEqualTo(fence);
            long lockTtl = probe.raw().pttl(keys.lock("resent"));
            long counterTtl = probe.raw().pttl(keys.fence("resent"));
            assertThat(counterTtl).as("counter PTTL vs the lock's %d ms after the re-sent acquire", lockTtl)
                    .isGreaterThanOrEqualTo(lockTtl);
        }
    }
}
