package io.distlock.redis;

import io.distlock.spi.LockBackend;
import io.distlock.spi.LockStoreProvider;
import io.distlock.spi.StoreUri;
import java.util.Set;
import redis.clients.jedis.UnifiedJedis;

/**
 * Opens Redis stores: {@code redis://[user:password@]host:port[/db]}, {@code rediss://} (TLS),
 * {@code redis-sentinel://s1:p1,s2:p2/master[/db]}, {@code redis-cluster://h1:p1,h2:p2,...} and
 * {@code redlock://h1:p1,h2:p2,h3:p3,...}; options ({@code keyPrefix}, {@code timeout}, {@code poolSize},
 * {@code restartGuard}, {@code maxLeaseTime}, {@code allowEviction}, and for Redlock {@code nodeTimeout},
 * {@code retryDelay}) go in the query string. Registered for {@link java.util.ServiceLoader}.
 */
public final class RedisLockStoreProvider implements LockStoreProvider {

    @Override
    public Set<String> schemes() {
        return Set.of("redis", "rediss", "redis-sentinel", "redis-cluster", "redlock");
    }

    @Override
    public LockBackend open(StoreUri storeUri) {
        JedisVersionCheck.requireJedis8();
        RedisUri uri = RedisUri.parse(storeUri);
        RedisOptions options = uri.options();
        switch (uri.scheme()) {
            case "redis", "rediss" -> {
                UnifiedJedis client = RedisClients.single(uri, uri.singleHost(), options.timeout());
                return new RedisBackend(client, options, uri.redacted(), false);
            }
            case "redis-sentinel" -> {
                return new RedisBackend(RedisClients.sentinel(uri), options, uri.redacted(), false);
            }
            case "redis-cluster" -> {
                if (options.restartGuard()) {
                    throw new IllegalArgumentException("restartGuard is not supported on redis-cluster:// ('"
                            + uri.redacted() + "'): its marker key cannot share a slot with every lock");
                }
                return new RedisBackend(RedisClients.cluster(uri), options, uri.redacted(), true);
            }
            case "redlock" -> {
                return RedlockBackend.open(uri);
            }
            default -> throw new IllegalArgumentException("redis provider does not open scheme '" + uri.scheme()
                    + "'");
        }
    }
}
