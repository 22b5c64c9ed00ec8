package io.distlock.redis;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

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

    private static final Set<String> KNOWN = Set.of("keyPrefix", "timeout", "poolSize", "restartGuard",
            "maxLeaseTime", "nodeTimeout", "retryDelay", "allowEviction");

    /** The defaults. */
    static RedisOptions defaults() {
        return new RedisOptions("distlock:", Duration.ofSeconds(2), 16, false, Duration.ofSeconds(60),
                Duration.ofMillis(250), Duration.ofMillis(200), false);
    }

    /**
     * Reads {@code params}.
     *
     * @throws IllegalArgumentException naming an unknown option or a bad value
     */
    static RedisOptions parse(Map<String, String> params, String redactedUri) {
        for (String key : params.keySet()) {
            if (!KNOWN.contains(key)) {
                throw new IllegalArgumentException("unknown option '" + key + "' in redis store uri '" + redactedUri
                        + "'; known options: " + new TreeSet<>(KNOWN));
            }
        }
        RedisOptions d = defaults();
        String prefix = params.getOrDefault("keyPrefix", d.keyPrefix);
        if (prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
            throw new IllegalArgumentException("option keyPrefix='" + prefix + "' must not contain '{' or '}': "
                    + "the lock name is the key's hash tag");
        }
        Duration timeout = duration(params, "timeout", d.timeout, redactedUri);
        int poolSize = positiveInt(params, "poolSize", d.poolSize, redactedUri);
        boolean guard = bool(params, "restartGuard", d.restartGuard, redactedUri);
        Duration maxLease = duration(params, "maxLeaseTime", d.maxLeaseTime, redactedUri);
        Duration nodeTimeout = duration(params, "nodeTimeout", d.nodeTimeout, redactedUri);
        Duration retryDelay = duration(params, "retryDelay", d.retryDelay, redactedUri);
        boolean allowEviction = bool(params, "allowEviction", d.allowEviction, redactedUri);
        return new RedisOptions(prefix, timeout, poolSize, guard, maxLease, nodeTimeout, retryDelay, allowEviction);
    }

    /** Parses {@code 250ms}, {@code 2s}, {@code 1m} or a bare number of milliseconds. */
    static Duration parseDuration(String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        long factorMs;
        String digits;
        if (v.endsWith("ms")) {
            factorMs = 1;
            digits = v.substring(0, v.length() - 2);
        } else if (v.endsWith("s")) {
            factorMs = 1000;
            digits = v.substring(0, v.length() - 1);
        } else if (v.endsWith("m")) {
            factorMs = 60_000;
            digits = v.substring(0, v.length() - 1);
        } else {
            factorMs = 1;
            digits = v;
        }
        long n = Long.parseLong(digits.strip());
        if (n <= 0) {
            throw new NumberFormatException("not positive");
        }
        return Duration.ofMillis(Math.multiplyExact(n, factorMs));
    }

    private static Duration duration(Map<String, String> params, String key, Duration fallback, String uri) {
        String v = params.get(key);
        if (v == null) {
            return fallback;
        }
        try {
            return parseDuration(v);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("option " + key + "='" + v + "' in redis store uri '" + uri
                    + "' is not a positive duration; write for example 500ms, 2s or 1m");
        }
    }

    private static int positiveInt(Map<String, String> params, String key, int fallback, String uri) {
        String v = params.get(key);
        if (v == null) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(v.strip());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("option " + key + "='" + v + "' in redis store uri '" + uri
                + "' is not a positive whole number");
    }

    private static boolean bool(Map<String, String> params, String key, boolean fallback, String uri) {
        String v = params.get(key);
        if (v == null) {
            return fallback;
        }
        if (v.equalsIgnoreCase("true") || v.isEmpty()) {
            return true;
        }
        if (v.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException("option " + key + "='" + v + "' in redis store uri '" + uri
                + "' must be true or false");
    }

    /** {@link #timeout()} in whole milliseconds, for Jedis. */
    int timeoutMillis() {
        return (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    }
}
