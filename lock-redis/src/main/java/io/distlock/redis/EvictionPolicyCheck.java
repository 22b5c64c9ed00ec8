package io.distlock.redis;

import io.distlock.LockException;
import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.Map;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.util.Pool;

/**
 * The eviction rule, checked when a store opens: a server whose {@code maxmemory-policy} is anything but
 * {@code noeviction} may evict lock keys when memory runs short (they all have a TTL, so even the {@code volatile-*}
 * policies pick them) and, under {@code allkeys-*}, fencing counters too; another client then acquires a lock that
 * is still held, silently. Such a store is refused unless the URI says {@code allowEviction=true}, which logs one
 * warning instead. A server that does not let us read its configuration (an ACL without {@code CONFIG}, a renamed
 * command, a managed service) is not checked; that is logged at debug level.
 */
final class EvictionPolicyCheck {

    private static final System.Logger LOG = System.getLogger(EvictionPolicyCheck.class.getName());
    private static final String SAFE = "noeviction";

    private EvictionPolicyCheck() {
    }

    /**
     * Reads the policy of every node in {@code pools} (labelled by node; an empty label for the only server).
     *
     * @throws LockException naming the store, the nodes and their policies, unless {@code allowEviction}
     */
    static void require(Map<String, Pool<Connection>> pools, boolean allowEviction, String store) {
        Map<String, String> evicting = new LinkedHashMap<>();
        pools.forEach((node, pool) -> {
            String policy = policyOf(pool, node, store);
            if (policy != null && !policy.equalsIgnoreCase(SAFE)) {
                evicting.put(node, policy);
            }
        });
        if (evicting.isEmpty()) {
            return;
        }
        String where = describe(evicting);
        if (allowEviction) {
            LOG.log(Level.WARNING, "redis store {0} runs with {1}: Redis may evict lock keys under memory pressure, "
                    + "and another client then acquires a held lock; accepted because allowEviction=true", store,
                    where);
            return;
        }
        throw new LockException("redis store " + store + " refused: it runs with " + where + ", so Redis may evict "
                + "lock keys (and fencing counters) under memory pressure and another client would acquire a lock "
                + "that is still held. Set maxmemory-policy noeviction on the server, or add allowEviction=true to "
                + "the store URI to accept the risk");
    }

    private static String policyOf(Pool<Connection> pool, String node, String store) {
        try (Jedis jedis = new Jedis(pool.getResource())) {
            return jedis.configGet("maxmemory-policy").get("maxmemory-policy");
        } catch (JedisException e) {
            LOG.log(Level.DEBUG, "redis store {0}: cannot read maxmemory-policy{1} ({2}); eviction not checked",
                    store, node.isEmpty() ? "" : " of node " + node, e.getMessage());
            return null;
        }
    }

    private static String describe(Map<String, String> evicting) {
        StringBuilder b = new StringBuilder();
        evicting.forEach((node, policy) -> {
            if (!b.isEmpty()) {
                b.append(", ");
            }
            b.append("maxmemory-policy ").append(policy);
            if (!node.isEmpty()) {
                b.append(" on ").append(node);
            }
        });
        return b.toString();
    }
}
