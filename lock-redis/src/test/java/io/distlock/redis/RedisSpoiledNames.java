package io.distlock.redis;

import io.distlock.tck.SpoiledNameState;
import java.net.URI;
import java.util.List;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisMovedDataException;

/**
 * The kit's hand on a Redis store's holder records (§20), as an operator's commands from {@code redis-cli} on every
 * node of the store that holds the key (one server, each of Redlock's, the Cluster master of the key's slot): a
 * lock's key turned into a hash, a semaphore's holder key (a single store's sorted set, a Redlock slot's string) into
 * a hash. The spoiled key expires after a minute, so the shared server keeps no litter.
 */
final class RedisSpoiledNames implements SpoiledNameState {

    private static final long LITTER_MS = 60_000;

    private final List<HostAndPort> nodes;
    private final RedisKeys keys;
    private final boolean redlock;

    /** Spoiling on the server of {@code storeUri} ({@code redis://host:port}), under the store's key prefix. */
    RedisSpoiledNames(String storeUri, String prefix) {
        this(List.of(new HostAndPort(URI.create(storeUri).getHost(), URI.create(storeUri).getPort())), prefix, false);
    }

    /** Spoiling on each of {@code nodes} that holds the key; {@code redlock}: the semaphores are Redlock's. */
    RedisSpoiledNames(List<HostAndPort> nodes, String prefix, boolean redlock) {
        this.nodes = List.copyOf(nodes);
        this.keys = new RedisKeys(prefix);
        this.redlock = redlock;
    }

    @Override
    public boolean spoilLock(String name) {
        return turnIntoHash(keys.lock(name));
    }

    @Override
    public boolean spoilSemaphore(String name) {
        return turnIntoHash(redlock ? keys.key(RedisKeys.Kind.SEM_SLOT, name) + 1
                : keys.key(RedisKeys.Kind.SEM_HOLDERS, name));
    }

    /** Replaces {@code key} with a hash on every node that holds it; at least one must. */
    private boolean turnIntoHash(String key) {
        int spoiled = 0;
        for (HostAndPort node : nodes) {
            try (RedisClient raw = RedisClient.create(node.getHost(), node.getPort())) {
                if (raw.exists(key)) {
                    raw.del(key);
                    raw.hset(key, "spoiled by", "an operator");
                    raw.pexpire(key, LITTER_MS);
                    spoiled++;
                }
            } catch (JedisMovedDataException e) {
                // a Cluster node that does not serve the key's slot
            }
        }
        if (spoiled == 0) {
            throw new IllegalStateException("no key " + key + " to spoil on " + nodes);
        }
        return true;
    }
}
