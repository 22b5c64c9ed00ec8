package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import io.distlock.tck.OwnershipRules;
import io.distlock.tck.StoreCapabilities;
import io.distlock.tck.TckHarness;
import io.distlock.tck.WaitingRules;
import java.time.Duration;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import redis.clients.jedis.RedisClient;

/**
 * The Sentinel store in the default build, on a test-owned master, replica and three Sentinels: the kit's waiting and
 * ownership rules, then, last, a failover after which the store follows the promoted replica and fencing tokens
 * keep growing. The core rules run in {@link RedisSentinelCoreRulesTest} (tagged slow).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisSentinelTest extends TckHarness implements WaitingRules, OwnershipRules {

    private static RedisSentinelFixture sentinel;

    @BeforeAll
    static void start() {
        sentinel = RedisSentinelFixture.start();
    }

    @AfterAll
    static void stop() {
        if (sentinel != null) {
            sentinel.close();
        }
    }

    @Override
    protected StoreCapabilities capabilities() {
        return StoreCapabilities.timeBound();
    }

    @Override
    protected LockStore newClient() {
        return LockStore.open(sentinel.uri("timeout=2s"));
    }

    @Override
    protected String storeUri() {
        return sentinel.uri("");
    }

    @Test
    @Order(Integer.MAX_VALUE) // kills the master: runs after the rules
    void storeFollowsTheNewMasterAfterFailover() throws Exception {
        LockStore store = tck().client();
        String name = tck().name("failover");
        Lease before = store.lock(name).tryAcquire().orElseThrow();
        before.release();
        try (RedisClient replica = RedisClient.create("127.0.0.1", sentinel.replica().port())) {
            // the fencing counter reaches the replica asynchronously: wait for it, then fail over
            Awaitility.await().atMost(Duration.ofSeconds(20))
                    .until(() -> replica.get(new RedisKeys("distlock:").fence(name)) != null);
        }
        sentinel.master().kill();
        Lease after = Awaitility.await("a lease from the promoted replica").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .ignoreExceptionsInstanceOf(StoreUnavailableException.class)
                .until(() -> store.lock(name).tryAcquire(), Optional::isPresent)
                .orElseThrow();
        assertThat(after.fencingToken()).isGreaterThan(before.fencingToken());
        after.release();
    }
}
