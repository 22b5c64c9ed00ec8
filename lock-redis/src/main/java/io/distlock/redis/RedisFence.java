package io.distlock.redis;

import io.distlock.Arguments;
import io.distlock.StaleFenceException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.UnifiedJedis;

/**
 * Fenced writes to data kept in Redis: a hash field is set only if the writer's fencing token is not lower than the
 * highest token that has written to that hash, which is kept beside the data in the hash's own {@value #FENCE_FIELD}
 * field. A stale write (from a holder that was paused past its lease while a newer holder wrote) gets
 * {@link StaleFenceException} and changes nothing.
 *
 * <pre>{@code
 * RedisFence fence = RedisFence.on(jedis);              // your RedisClient, RedisClusterClient, RedisSentinelClient
 * try (Lease lease = lock.acquire()) {
 *     fence.hset("order:42", "status", "shipped", lease.fencingToken());
 * }
 * }</pre>
 *
 * <p>The check and the write are one Lua script on one key, so they are atomic, work on Redis Cluster whatever the
 * key's slot, and are safe to repeat (a client that retries the script after a timeout writes the same again). The
 * data and its fence live and expire together, and a snapshot (RDB or AOF) restores them together. Deleting the
 * hash forgets its fence: the next write, whatever its token, is accepted. Tokens are compared as exact 64-bit
 * integers (never through Lua's doubles), equal tokens are accepted, and the token may come from any distlock store.
 *
 * <p>It takes a {@link UnifiedJedis}, the common type of Jedis' {@code RedisClient}, {@code RedisClusterClient},
 * {@code RedisSentinelClient} and {@code JedisCluster}, so it writes through the client the application already
 * has, and it never closes it. Connection failures and Redis errors ({@code WRONGTYPE} when the key is not a hash)
 * are Jedis' own exceptions. Instances are thread-safe as far as the client is.
 */
public final class RedisFence {

    /** The hash field that holds the highest token that has written to the hash. */
    public static final String FENCE_FIELD = "fence";

    /** The largest fencing token, as the decimal text the script compares recorded tokens with. */
    private static final String MAX_TOKEN = Long.toString(Long.MAX_VALUE);

    /**
     * How many field, value pairs one {@code HSET} of the script takes: Lua's {@code unpack} refuses more values
     * than its stack holds (about 8,000), so a write of more fields is sent as several {@code HSET}s of one script,
     * still one atomic write.
     */
    private static final int PAIRS_PER_HSET = 1000;

    /**
     * KEYS: the hash. ARGV: the token, then field, value pairs. Writes them and the token into the fence field unless
     * the recorded token is higher; returns nil when written, else the recorded token. Tokens are decimal strings
     * without leading zeros, so comparing their lengths, then the strings, compares the numbers exactly. A recorded
     * value that is not a token (not a decimal from 1 to 2^63-1, the largest a Java long holds) is an error naming
     * it, and nothing is written.
     */
    static final LuaScript FENCED_HSET = new LuaScript("fencedHset", """
            local seen = redis.call('HGET', KEYS[1], 'fence')
            local token = ARGV[1]
            if seen then
              if #seen > 19 or not string.match(seen, '^[1-9][0-9]*$') or (#seen == 19 and seen > '%1$s') then
                return redis.error_reply('ERR the fence field of hash ' .. KEYS[1]
                  .. ' does not hold a fencing token (a whole number from 1 to %1$s): ' .. seen)
              end
              if #seen > #token or (#seen == #token and seen > token) then
                return seen
              end
            end
            redis.call('HSET', KEYS[1], 'fence', token)
            for first = 2, #ARGV, %2$d do
              redis.call('HSET', KEYS[1], unpack(ARGV, first, math.min(first + %2$d - 1, #ARGV)))
            end
            return false
            """.formatted(MAX_TOKEN, 2 * PAIRS_PER_HSET));

    private final UnifiedJedis jedis;

    private RedisFence(UnifiedJedis jedis) {
        this.jedis = jedis;
    }

    /** Fenced writes through {@code jedis} (not closed by this class). */
    public static RedisFence on(UnifiedJedis jedis) {
        return new RedisFence(Objects.requireNonNull(jedis, "jedis client must not be null"));
    }

    /**
     * Fenced writes through a classic {@link Jedis} connection (not closed by this class); like the connection, the
     * fence is then for one thread at a time.
     */
    public static RedisFence on(Jedis jedis) {
        Objects.requireNonNull(jedis, "jedis client must not be null");
        return new RedisFence(new UnifiedJedis(jedis.getConnection()) {
        });
    }

    /**
     * Sets {@code field} of the hash at {@code key} to {@code value} and records {@code fencingToken} in its
     * {@value #FENCE_FIELD} field, if no higher token is recorded there; otherwise changes nothing.
     *
     * @throws StaleFenceException if a higher token has already written to the hash
     * @throws IllegalArgumentException if the key is empty, the field is {@value #FENCE_FIELD} or the token is below 1
     */
    public void hset(String key, String field, String value, long fencingToken) {
        Objects.requireNonNull(field, "field must not be null");
        Objects.requireNonNull(value, "value of field '" + field + "' must not be null");
        Map<String, String> one = new LinkedHashMap<>();
        one.put(field, value);
        hset(key, one, fencingToken);
    }

    /**
     * Sets every field of {@code fields} in the hash at {@code key} and records {@code fencingToken}, all at once, if
     * no higher token is recorded there; otherwise changes nothing.
     *
     * @throws StaleFenceException if a higher token has already written to the hash
     * @throws IllegalArgumentException if the key is empty, there are no fields, one of them is
     *         {@value #FENCE_FIELD}, or the token is below 1
     */
    public void hset(String key, Map<String, String> fields, long fencingToken) {
        requireKey(key);
        Objects.requireNonNull(fields, "fields must not be null");
        if (fields.isEmpty()) {
            throw new IllegalArgumentException("fields must not be empty: nothing to write to "
                    + Arguments.quoted(key));
        }
        requireToken(fencingToken);
        List<String> args = new ArrayList<>(1 + 2 * fields.size());
        args.add(Long.toString(fencingToken));
        for (Map.Entry<String, String> e : fields.entrySet()) {
            String field = Objects.requireNonNull(e.getKey(), "field must not be null");
            if (field.equals(FENCE_FIELD)) {
                throw new IllegalArgumentException("field '" + FENCE_FIELD + "' of '" + key
                        + "' holds the fencing token and cannot be written as data");
            }
            args.add(field);
            args.add(Objects.requireNonNull(e.getValue(), "value of field '" + field + "' must not be null"));
        }
        Object seen = FENCED_HSET.run(jedis, List.of(key), args);
        if (seen != null) {
            throw new StaleFenceException(key, fencingToken, Long.parseLong(text(seen)));
        }
    }

    /**
     * The highest token that has written to the hash at {@code key}, or 0 if none has.
     *
     * @throws IllegalStateException if the hash's {@value #FENCE_FIELD} field holds something other than a fencing
     *         token (a whole number from 1 to {@link Long#MAX_VALUE}), as the fenced write refuses it
     */
    public long highest(String key) {
        requireKey(key);
        String seen = jedis.hget(key, FENCE_FIELD);
        if (seen == null) {
            return 0;
        }
        try {
            long token = Long.parseLong(seen);
            if (token >= 1 && seen.equals(Long.toString(token))) {
                return token;
            }
        } catch (NumberFormatException notALong) {
            // said below
        }
        throw new IllegalStateException("the fence field of hash " + key + " does not hold a fencing token (a whole"
                + " number from 1 to " + MAX_TOKEN + "): " + seen);
    }

    private static void requireKey(String key) {
        Objects.requireNonNull(key, "key must not be null");
        if (key.isEmpty()) {
            throw new IllegalArgumentException("key must not be empty");
        }
    }

    private static void requireToken(long token) {
        if (token < 1) {
            throw new IllegalArgumentException("fencing token must be at least 1, got " + token);
        }
    }

    private static String text(Object reply) {
        return reply instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : reply.toString();
    }

    @Override
    public String toString() {
        return "RedisFence[" + jedis.getClass().getSimpleName() + "]";
    }
}
