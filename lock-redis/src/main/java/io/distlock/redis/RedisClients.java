package io.distlock.redis;

import io.distlock.StoreUnavailableException;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.RedisSentinelClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.util.Pool;

/**
 * Builds the Jedis client for each topology from a parsed URI: {@link RedisClient} for one server,
 * {@link RedisSentinelClient} for a Sentinel-managed master, {@link RedisClusterClient} for a Cluster. Every client
 * gets bounded connect and socket timeouts and a pool sized for its users plus the release subscriber, and is
 * checked with a {@code PING} so an unreachable store fails at open with {@link StoreUnavailableException}.
 */
final class RedisClients {

    private static final int CLUSTER_SLOTS = 16384;

    private RedisClients() {
    }

    /** The client config (credentials, database, TLS, timeouts) for data connections. */
    static JedisClientConfig clientConfig(RedisUri uri, int database, Duration timeout) {
        int ms = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        DefaultJedisClientConfig.Builder b = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(ms)
                .socketTimeoutMillis(ms)
                .database(database)
                .clientName("distlock")
                .ssl(uri.scheme().equals("rediss"));
        if (uri.user() != null) {
            b.user(uri.user());
        }
        if (uri.password() != null) {
            b.password(uri.password());
        }
        return b.build();
    }

    /** A pool that waits at most the timeout for a connection; one extra connection for the subscriber. */
    static ConnectionPoolConfig poolConfig(RedisOptions options) {
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(options.poolSize() + 1);
        pool.setMaxIdle(options.poolSize() + 1);
        pool.setMinIdle(0);
        pool.setMaxWait(options.timeout());
        pool.setBlockWhenExhausted(true);
        pool.setTestWhileIdle(false);
        return pool;
    }

    /** A client of one server ({@code redis://}, {@code rediss://}). */
    static UnifiedJedis single(RedisUri uri, HostAndPort host, Duration timeout) {
        RedisClient client = RedisClient.builder()
                .hostAndPort(host)
                .clientConfig(clientConfig(uri, uri.database(), timeout))
                .poolConfig(poolConfig(uri.options()))
                .build();
        return checked(client, uri);
    }

    /** A client of the master named by the URI's path, found through the listed sentinels. */
    static UnifiedJedis sentinel(RedisUri uri) {
        String[] path = uri.path().split("/");
        String master = path[0];
        if (master.isEmpty()) {
            throw new IllegalArgumentException("redis store uri '" + uri.redacted() + "' names no master; expected "
                    + "redis-sentinel://sentinel1:26379,sentinel2:26379/mymaster[/db]");
        }
        int database = 0;
        if (path.length > 1) {
            try {
                database = Integer.parseInt(path[1]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("redis store uri '" + uri.redacted() + "' has '" + path[1]
                        + "' where a database number is expected");
            }
        }
        JedisClientConfig sentinelConfig = DefaultJedisClientConfig.builder()
                .autoNegotiateProtocol(false) // Sentinel listeners speak RESP2; saves a warning per connection
                .connectionTimeoutMillis(uri.options().timeoutMillis())
                .socketTimeoutMillis(uri.options().timeoutMillis())
                .build();
        try {
            RedisSentinelClient client = RedisSentinelClient.builder()
                    .masterName(master)
                    .sentinels(new LinkedHashSet<>(uri.hosts()))
                    .clientConfig(clientConfig(uri, database, uri.options().timeout()))
                    .sentinelClientConfig(sentinelConfig)
                    .poolConfig(poolConfig(uri.options()))
                    .build();
            return checked(client, uri);
        } catch (JedisException e) {
            throw unavailable(uri, e);
        }
    }

    /** A client of a Cluster, discovering it from the listed nodes. */
    static UnifiedJedis cluster(RedisUri uri) {
        if (uri.database() != 0) {
            throw new IllegalArgumentException("redis store uri '" + uri.redacted()
                    + "': Redis Cluster has only database 0");
        }
        try {
            RedisClusterClient client = RedisClusterClient.builder()
                    .nodes(new LinkedHashSet<>(uri.hosts()))
                    .clientConfig(clientConfig(uri, 0, uri.options().timeout()))
                    .poolConfig(poolConfig(uri.options()))
                    .maxAttempts(3)
                    .maxTotalRetriesDuration(uri.options().timeout().multipliedBy(2))
                    .build();
            return checked(client, uri);
        } catch (JedisException e) {
            throw unavailable(uri, e);
        }
    }

    /**
     * Where the release subscriber takes its connection from: the client's own pool (for a Sentinel client, the
     * pool of the current master; for a Cluster, the pool of a node), so the subscriber can cut a connection it
     * finds dead.
     */
    static Supplier<Connection> subscriptionConnections(UnifiedJedis client) {
        if (client instanceof RedisClient single) {
            return () -> single.getPool().getResource();
        }
        if (client instanceof RedisSentinelClient sentinel) {
            return () -> sentinel.getPrimaryNodesConnectionMap().values().iterator().next().getResource();
        }
        if (client instanceof RedisClusterClient cluster) {
            return () -> cluster.getConnectionFromSlot(ThreadLocalRandom.current().nextInt(CLUSTER_SLOTS));
        }
        throw new IllegalArgumentException("no subscription connections for " + client.getClass().getName());
    }

    /**
     * The connection pools of every master of {@code client} (on a Cluster, of every node it knows), by a label
     * naming the node where the client knows it.
     */
    static Map<String, Pool<Connection>> nodePools(UnifiedJedis client) {
        Map<String, Pool<Connection>> pools = new LinkedHashMap<>();
        if (client instanceof RedisClient single) {
            pools.put("", single.getPool());
        } else if (client instanceof RedisSentinelClient sentinel) {
            sentinel.getPrimaryNodesConnectionMap().forEach((node, pool) -> pools.put(String.valueOf(node), pool));
        } else if (client instanceof RedisClusterClient cluster) {
            pools.putAll(cluster.getClusterNodes());
        } else {
            throw new IllegalArgumentException("no node pools for " + client.getClass().getName());
        }
        return pools;
    }

    private static UnifiedJedis checked(UnifiedJedis client, RedisUri uri) {
        try {
            client.ping();
        } catch (JedisException | IllegalStateException e) {
            client.close();
            throw e instanceof JedisException je ? unavailable(uri, je)
                    : new StoreUnavailableException("redis store " + uri.redacted() + " cannot be reached: "
                    + e.getMessage(), e);
        }
        try {
            EvictionPolicyCheck.require(nodePools(client), uri.options().allowEviction(), uri.redacted());
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
        return client;
    }

    private static RuntimeException unavailable(RedisUri uri, JedisException e) {
        return RedisErrors.translate(uri.redacted(), "open", e);
    }
}
