package io.distlock.redis;

import io.distlock.LockStore;
import io.distlock.tck.ExpiryRules;
import io.distlock.tck.FencingRules;
import io.distlock.tck.LeadershipRules;
import io.distlock.tck.MutualExclusionRules;
import io.distlock.tck.OwnershipRules;
import io.distlock.tck.SemaphoreRules;
import io.distlock.tck.StoreCapabilities;
import io.distlock.tck.TckHarness;
import io.distlock.tck.WaitingRules;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/**
 * The kit's core rules (mutual exclusion, waiting, ownership, expiry, fencing), run-once tasks and leadership, and
 * semaphores through Sentinel, on a test-owned master, replica and three Sentinels. Tagged slow (a minute or more); {@link RedisSentinelTest} runs in the
 * default build.
 */
@Tag("slow")
class RedisSentinelCoreRulesTest extends TckHarness
        implements MutualExclusionRules, WaitingRules, OwnershipRules, ExpiryRules, FencingRules, LeadershipRules,
        SemaphoreRules {

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
}
