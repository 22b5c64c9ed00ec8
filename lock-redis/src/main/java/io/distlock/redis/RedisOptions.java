package io.distlock.redis;

import io.distlock.spi.StoreUri;
import java.time.Duration;
import java.util.Set;

/**
 * The query options of a Redis store URI, checked and with defaults: {@code keyPrefix} (default {@code distlock:}),
 * {@code timeout} (connect and socket timeout, default 2 s), {@code poolSize} (default 16), {@code restartGuard}
 * (default false) with {@code maxLeaseTime} (the longest lease the guard waits out, default 60 s), and for Redlock
 * {@code nodeTimeout} (default 250 ms) and {@code retryDelay} (upper bound of the random retry delay, default 200 ms),
 * and {@code allowEviction} (default false: a server whose {@code maxmemory-policy} may evict keys is refused).
 *
 * @param keyPrefix prefix of every key and channel this store uses
 * @param timeout connect and socket timeout
 * @param poolSize most connections in the pool
 * @param restartGuard whether a server that lost its data grants nothing for {@code maxLeaseTime}
 * @param maxLeaseTime the longest lease this store grants when the restart guard is on
 * @param nodeTimeout Redlock: per-node timeout of one attempt
 * @param retryDelay Redlock: most random delay between attempts
 * @param allowEviction whether a server with an evicting {@code maxmemory-policy} is accepted (with a warning)
 */
record RedisOptions(String keyPrefix, Duration timeout, int poolSize, boolean restartGuard, Duration maxLeaseTime,
        Duration nodeTimeout, Duration retryDelay, boolean allowEviction) {

    private static final Duration MAX_DURATION = Duration.ofMillis(Integer.MAX_VALUE);
    private static final Set<String> KNOWN = Set.of("keyPrefix", "timeout", "poolSize", "restartGuard",
            "maxLeaseTime", "nodeTimeout", "retryDelay", "allowEviction");

    /** The defaults. */
    static RedisOptions defaults() {
        return new RedisOptions("distlock:", Duration.ofSeconds(2), 16, false, Duration.ofSeconds(60),
                Duration.ofMillis(250), Duration.ofMillis(200), false);
    }

    /**
     * Reads the options of {@code uri}.
     *
     * @throws IllegalArgumentException naming an unknown option or a bad value
     */
    static RedisOptions parse(StoreUri uri) {
        uri.requireKnownOptions(KNOWN);
        RedisOptions d = defaults();
        String prefix = uri.param("keyPrefix", d.keyPrefix);
        if (prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
            throw new IllegalArgumentException("option keyPrefix='" + prefix + "' must not contain '{' or '}': "
                    + "the lock name is the key's hash tag");
        }
        Duration timeout = duration(uri, "timeout", d.timeout);
        int poolSize = uri.intOption("poolSize", d.poolSize, 1, Integer.MAX_VALUE);
        boolean guard = uri.booleanOption("restartGuard", d.restartGuard);
        Duration maxLease = duration(uri, "maxLeaseTime", d.maxLeaseTime);
        Duration nodeTimeout = duration(uri, "nodeTimeout", d.nodeTimeout);
        Duration retryDelay = duration(uri, "retryDelay", d.retryDelay);
        boolean allowEviction = uri.booleanOption("allowEviction", d.allowEviction);
        return new RedisOptions(prefix, timeout, poolSize, guard, maxLease, nodeTimeout, retryDelay, allowEviction);
    }

    private static Duration duration(StoreUri uri, String key, Duration fallback) {
        return uri.durationOption(key, fallback, Duration.ofMillis(1), MAX_DURATION);
    }

    /** {@link #timeout()} in whole milliseconds, for Jedis. */
    int timeoutMillis() {
        return (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    }
}
