package io.distlock.redis;

import io.distlock.tck.FenceStateTampering;
import java.net.URI;
import redis.clients.jedis.RedisClient;

/**
 * The kit's hand on a Redis store's fencing counters (§19), as an operator's {@code DEL} or {@code SET} from
 * {@code redis-cli}: the lock's {@code Pfence:{NAME}} and the semaphore's {@code Psemfence:{NAME}}. Redis keeps them
 * as strings, so every foreign value applies; each call opens a raw client of its own.
 */
final class RedisFenceTampering implements FenceStateTampering {

    private final URI server;
    private final RedisKeys keys;

    /** Tampering on the server of {@code storeUri} ({@code redis://host:port}), under the store's key prefix. */
    RedisFenceTampering(String storeUri, String prefix) {
        this.server = URI.create(storeUri);
        this.keys = new RedisKeys(prefix);
    }

    @Override
    public boolean forgetLock(String name) {
        return delete(keys.fence(name));
    }

    @Override
    public boolean overwriteLock(String name, ForeignValue value) {
        return overwrite(keys.fence(name), value);
    }

    @Override
    public boolean forgetSemaphore(String name) {
        return delete(semaphoreFence(name));
    }

    @Override
    public boolean overwriteSemaphore(String name, ForeignValue value) {
        return overwrite(semaphoreFence(name), value);
    }

    /** Where {@link RedisPermits#fence} keeps a semaphore's counter. */
    private String semaphoreFence(String name) {
        return keys.prefix() + "semfence:" + RedisKeys.tagged(name);
    }

    private boolean delete(String key) {
        try (RedisClient raw = RedisClient.create(server.getHost(), server.getPort())) {
            if (raw.del(key) != 1) {
                throw new IllegalStateException("no fencing counter at " + key + " to delete");
            }
            return true;
        }
    }

    private boolean overwrite(String key, ForeignValue value) {
        try (RedisClient raw = RedisClient.create(server.getHost(), server.getPort())) {
            String current = raw.get(key);
            if (current == null) {
                throw new IllegalStateException("no fencing counter at " + key + " to overwrite");
            }
            raw.set(key, switch (value) {
                case ZERO -> "0";
                case NEGATIVE -> "-5";
                case FAR_AHEAD -> Long.toString(Long.parseLong(current) + 1_000_000_000_000L);
                case LARGEST -> Long.toString(Long.MAX_VALUE);
                case OUT_OF_RANGE -> "1e19";
                case NOT_A_NUMBER -> "abc";
                case NOT_FINITE -> "nan";
                case EMPTY -> "";
            });
            return true;
        }
    }
}
