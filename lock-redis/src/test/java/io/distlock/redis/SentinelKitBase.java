package io.distlock.redis;

/**
 * Kit rules through Sentinel, on a master, replica and three Sentinels that each test class owns (a
 * {@link ClassFixture} of its own, since this module runs test classes concurrently). Subclasses pick the rule groups.
 */
abstract class SentinelKitBase extends OwnStoreKitBase {

    /** The class's Sentinel set-up. */
    abstract RedisSentinelFixture sentinel();

    @Override
    String uri(String query) {
        return sentinel().uri(query);
    }
}
