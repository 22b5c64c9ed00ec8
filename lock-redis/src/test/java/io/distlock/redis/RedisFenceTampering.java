package io.distlock.redis;

import io.distlock.tck.FenceStateTampering;
import java.net.URI;
import java.util.List;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;

/**
 * The kit's hand on a Redis store's fencing counters (§19), as an operator's {@code DEL} or {@code SET} from
 * {@code redis-cli} on every node of the store (one server, or each of Redlock's): the lock's {@code P{NAME}:fence}
 * and the semaphore's {@code P{NAME}:semfence}. Redis keeps them as strings, so every foreign value applies; each
 * call opens raw clients of its own.
 */
final class RedisFenceTampering implements FenceStateTampering {

    private final List<HostAndPort> nodes;
    private final RedisKeys keys;

    /** Tampering on the server of {@code storeUri} ({@code redis://host:port}), under the store's key prefix. */
    RedisFenceTampering(String storeUri, String prefix) {
        this(List.of(new HostAndPort(URI.create(storeUri).getHost(), URI.create(storeUri).getPort())), prefix);
    }

    /** Tampering on each of {@code nodes}, under the store's key prefix. */
    RedisFenceTampering(List<HostAndPort> nodes, String prefix) {
        this.nodes = List.copyOf(nodes);
        this.keys = new RedisKeys(prefix);
    }

    /**
     * One server's store (not Redlock's): a redis-server of its own restored from an older RDB snapshot (§19.6).
     */
    @Override
    public RestorableStore restorableStore() {
        return nodes.size() == 1 ? new RestorableRedis() : null;
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
        return keys.key(RedisKeys.Kind.SEM_FENCE, name);
    }

    /** Deletes {@code key} on every node; at least one must have held it. */
    private boolean delete(String key) {
        long deleted = 0;
        for (HostAndPort node : nodes) {
            try (RedisClient raw = RedisClient.create(node.getHost(), node.getPort())) {
                deleted += raw.del(key);
            }
        }
        if (deleted == 0) {
            throw new IllegalStateException("no fencing counter at " + key + " to delete on " + nodes);
        }
        return true;
    }

    /** Overwrites {@code key} on every node that holds it; at least one must. */
    private boolean overwrite(String key, ForeignValue value) {
        int overwritten = 0;
        for (HostAndPort node : nodes) {
            try (RedisClient raw = RedisClient.create(node.getHost(), node.getPort())) {
                String current = raw.get(key);
                if (current != null) {
                    raw.set(key, foreign(value, current));
                    overwritten++;
                }
            }
        }
        if (overwritten == 0) {
            throw new IllegalStateException("no fencing counter at " + key + " to overwrite on " + nodes);
        }
        return true;
    }

    /** {@code value} as the string an operator would SET over the counter that holds {@code current}. */
    private static String foreign(ForeignValue value, String current) {
        return switch (value) {
            case ZERO -> "0";
            case NEGATIVE -> "-5";
            case FAR_AHEAD -> Long.toString(Long.parseLong(current) + 1_000_000_000_000L);
            case LARGEST -> Long.toString(Long.MAX_VALUE);
            case OUT_OF_RANGE -> "1e19";
            case NOT_A_NUMBER -> "abc";
            case NOT_FINITE -> "nan";
            case EMPTY -> "";
        };
    }
}
