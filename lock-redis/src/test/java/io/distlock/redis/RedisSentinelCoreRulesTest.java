package io.distlock.redis;

import io.distlock.tck.ExpiryRules;
import io.distlock.tck.FencingRules;
import io.distlock.tck.LeadershipRules;
import io.distlock.tck.MutualExclusionRules;
import io.distlock.tck.OwnershipRules;
import io.distlock.tck.SemaphoreRules;
import io.distlock.tck.WaitingRules;
import io.distlock.tck.fixture.ClassFixture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The kit's core rules (mutual exclusion, waiting, ownership, expiry, fencing), run-once tasks and leadership, and
 * semaphores through Sentinel, on a test-owned master, replica and three Sentinels. Tagged slow (a minute or more);
 * {@link RedisSentinelTest} runs in the default build.
 */
@Tag("slow")
class RedisSentinelCoreRulesTest extends SentinelKitBase
        implements MutualExclusionRules, WaitingRules, OwnershipRules, ExpiryRules, FencingRules, LeadershipRules,
        SemaphoreRules {

    @RegisterExtension
    static final ClassFixture<RedisSentinelFixture> sentinel = new ClassFixture<>(RedisSentinelFixture::start);

    @Override
    RedisSentinelFixture sentinel() {
        return sentinel.get();
    }
}
