package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import io.distlock.tck.ExpiryRules;
import io.distlock.tck.FencingRules;
import io.distlock.tck.MutualExclusionRules;
import io.distlock.tck.OwnershipRules;
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
 * The kit's core rules (mutual exclusion, waiting, ownership, expiry, fencing) through Sentinel, on a test-owned
 * master, replica and three Sentinels; then, last, a failover after which the store follows the new master.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisSentinelCoreRulesTest extends TckRuleGroups
        implements MutualExclusionRules, WaitingRules, OwnershipRules, ExpiryRules, FencingRules {

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
