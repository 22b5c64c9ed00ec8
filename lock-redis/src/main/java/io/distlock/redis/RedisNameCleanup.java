package io.distlock.redis;

import io.distlock.spi.StoreUri;
import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.UnifiedJedis;

/**
 * Deletes every key a Redis store keeps for the names starting with a prefix (locks, fencing counters, semaphores,
 * markers): for a program whose names are its own, such as a demo run or a test, to leave nothing behind. It never
 * touches another name's keys, the store's restart-guard marker, or anything outside the store's key prefix.
 *
 * <p>Deleting a name's fencing counter lets a later holder of that same name start from the store's floor again, so
 * use it only for names nothing will ever take again (a prefix unique to one run).
 */
public final class RedisNameCleanup {

    private static final int SCAN_COUNT = 500;

    private RedisNameCleanup() {
    }

    /**
     * Deletes the keys of every name starting with {@code namePrefix} in the store {@code storeUri} opens, on every
     * node of a Redlock URI; returns how many keys were deleted.
     *
     * @throws IllegalArgumentException if the prefix is empty, holds {@code '{'} or {@code '}'}, or starts with
     *     {@code '#'} (a hashed name's tag), or the URI is not a Redis store's
     */
    public static long deleteNames(String storeUri, String namePrefix) {
        if (namePrefix == null || namePrefix.isEmpty() || namePrefix.indexOf('{') >= 0
                || namePrefix.indexOf('}') >= 0 || namePrefix.startsWith("#")) {
            throw new IllegalArgumentException("a name prefix to delete must be non-empty, hold no '{' or '}' and "
                    + "not start with '#', got '" + namePrefix + "'");
        }
        RedisUri uri = RedisUri.parse(StoreUri.parse(storeUri));
        RedisKeys keys = new RedisKeys(uri.options().keyPrefix());
        String pattern = keys.pattern(namePrefix);
        List<UnifiedJedis> clients = new ArrayList<>();
        try {
            switch (uri.scheme()) {
                case "redis", "rediss" -> clients.add(RedisClients.single(uri, uri.singleHost(),
                        uri.options().timeout()));
                case "redis-sentinel" -> clients.add(RedisClients.sentinel(uri));
                case "redis-cluster" -> clients.add(RedisClients.cluster(uri));
                case "redlock" -> {
                    for (HostAndPort host : uri.hosts()) {
                        clients.add(RedisClients.single(uri, host, uri.options().timeout()));
                    }
                }
                default -> throw new IllegalArgumentException("not a Redis store URI: '" + uri.redacted() + "'");
            }
            long deleted = 0;
            for (UnifiedJedis client : clients) {
                deleted += deleteMatching(client, pattern);
            }
            return deleted;
        } finally {
            clients.forEach(UnifiedJedis::close);
        }
    }

    private static long deleteMatching(UnifiedJedis client, String pattern) {
        long deleted = 0;
        var scan = client.scanIteration(SCAN_COUNT, pattern);
        while (!scan.isIterationCompleted()) {
            for (String key : scan.nextBatchList()) {
                deleted += client.del(key); // one key per DEL: a name's keys share a slot, different names may not
            }
        }
        return deleted;
    }
}
