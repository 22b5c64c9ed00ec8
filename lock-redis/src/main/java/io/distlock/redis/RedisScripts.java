package io.distlock.redis;

/**
 * The Lua scripts of the Redis store. Each runs atomically on the server, reads its keys and tokens only from
 * {@code KEYS}/{@code ARGV}, and compares the holder's value before it changes a lock.
 */
final class RedisScripts {

    private RedisScripts() {
    }

    /**
     * Acquire. KEYS: lock, fence[, guard]. ARGV: value, lease ms, guard window ms (0: no guard). Returns
     * {@code {1, fence}} when granted, {@code {0, ms}} when held (ms: the holder's TTL, -1 unknown), or while the
     * restart guard holds everything back, the time left of its window. A missing fencing counter starts from the
     * server clock in microseconds, so tokens keep growing after the server lost its data.
     */
    static final LuaScript ACQUIRE = new LuaScript("acquire", """
            local guardMs = tonumber(ARGV[3])
            if guardMs > 0 then
              local t = redis.call('TIME')
              local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
              local ready = redis.call('GET', KEYS[3])
              if not ready then
                redis.call('SET', KEYS[3], string.format('%.0f', now + guardMs))
                return {0, guardMs}
              end
              if now < tonumber(ready) then
                return {0, tonumber(ready) - now}
              end
            end
            if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
              if redis.call('EXISTS', KEYS[2]) == 0 then
                local t = redis.call('TIME')
                redis.call('SET', KEYS[2], t[1] .. string.sub('000000' .. t[2], -6))
              end
              return {1, redis.call('INCR', KEYS[2])}
            end
            return {0, redis.call('PTTL', KEYS[1])}
            """);

    /** Release. KEYS: lock. ARGV: value, channel, name. Deletes and publishes only if the value matches. */
    static final LuaScript RELEASE = new LuaScript("release", """
            if redis.call('GET', KEYS[1]) == ARGV[1] then
              redis.call('DEL', KEYS[1])
              redis.call('PUBLISH', ARGV[2], ARGV[3])
              return 1
            end
            return 0
            """);

    /**
     * Renew a batch. KEYS: lock keys. ARGV: lease ms and value for each key in turn. Returns the 1-based positions
     * of the keys that were no longer held.
     */
    static final LuaScript RENEW = new LuaScript("renew", """
            local lost = {}
            for i = 1, #KEYS do
              if redis.call('GET', KEYS[i]) == ARGV[2 * i] then
                redis.call('PEXPIRE', KEYS[i], ARGV[2 * i - 1])
              else
                lost[#lost + 1] = i
              end
            end
            return lost
            """);

    /** Force release. KEYS: lock. ARGV: channel, name. Deletes whoever holds it; 1 if someone did. */
    static final LuaScript FORCE_RELEASE = new LuaScript("forceRelease", """
            local n = redis.call('DEL', KEYS[1])
            if n == 1 then
              redis.call('PUBLISH', ARGV[1], ARGV[2])
            end
            return n
            """);

    /**
     * Redlock fence write-back. KEYS: fence. ARGV: fence. Raises the node's counter to at least the fence handed
     * out, so the next majority, which shares a node with this one, counts past it.
     */
    static final LuaScript RAISE_FENCE = new LuaScript("raiseFence", """
            local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
            if cur < tonumber(ARGV[1]) then
              redis.call('SET', KEYS[1], ARGV[1])
            end
            return 1
            """);
}
