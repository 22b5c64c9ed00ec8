package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import io.distlock.tck.OwnershipRules;
import io.distlock.tck.WaitingRules;
import io.distlock.tck.fixture.ClassFixture;
import java.time.Duration;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.RedisClient;

/**
 * The Sentinel store in the default build, on a test-owned master, replica and three Sentinels: the kit's waiting and
 * ownership rules, then, last, a failover after which the store follows the promoted replica and fencing tokens
 * keep growing. The core rules run in {@link RedisSentinelCoreRulesTest} (tagged slow).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisSentinelTest extends SentinelKitBase implements WaitingRules, OwnershipRules {

    @RegisterExtension
    static final ClassFixture<RedisSentinelFixture> sentinel = new ClassFixture<>(RedisSentinelFixture::start);

    @Override
    RedisSentinelFixture sentinel() {
        return sentinel.get();
    }

    @Test
    @Order(Integer.MAX_VALUE) // kills the master: runs after the rules
    void storeFollowsTheNewMasterAfterFailover() throws Exception {
        LockStore store = tck().client();
        String name = tck().name("failover");
        Lease before = store.lock(name).tryAcquire().orElseThrow();
        before.release();
        try (RedisClient replica = RedisClient.create("127.0.0.1", sentinel().replica().port())) {
            // the fencing counter reaches the replica asynchronously: wait for it, then fail over
            Awaitility.await().atMost(Duration.ofSeconds(20))
                    .until(() -> replica.get(new RedisKeys("distlock:").fence(name)) != null);
        }
        sentinel().master().kill();
        Lease after = Awaitility.await("a lease from the promoted replica").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .ignoreExceptionsInstanceOf(StoreUnavailableException.class)
                .until(() -> store.lock(name).tryAcquire(), Optional::isPresent)
                .orElseThrow();
        assertThat(after.fencingToken()).isGreaterThan(before.fencingToken());
        after.release();
    }
}
