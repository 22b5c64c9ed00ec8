package io.distlock.redis;

import io.distlock.LockStore;
import io.distlock.tck.RacesAndBoundsRules;
import io.distlock.tck.fixture.BackendStores;
import io.distlock.tck.fixture.ClassFixture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The kit's §15 rules (races and bounds) through Sentinel, with clients of two pooled connections so that §15.5's
 * interrupted releases wait for a connection of the master's pool (DEFECTS S88, S92), as
 * {@link RedisSmallPoolTckTest} does on a single server. Tagged slow, as {@link RedisSentinelCoreRulesTest}: it
 * starts a master, a replica and three Sentinels of its own.
 */
@Tag("slow")
class RedisSentinelRacesTest extends SentinelKitBase implements RacesAndBoundsRules {

    @RegisterExtension
    static final ClassFixture<RedisSentinelFixture> sentinel = new ClassFixture<>(RedisSentinelFixture::start);

    @Override
    RedisSentinelFixture sentinel() {
        return sentinel.get();
    }

    @Override
    protected LockStore newClient() {
        return BackendStores.open(uri("timeout=2s&poolSize=2"));
    }
}
