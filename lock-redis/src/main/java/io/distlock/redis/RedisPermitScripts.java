package io.distlock.redis;

/**
 * The Lua scripts of Redis semaphores. A semaphore {@code NAME} keeps, under one hash tag (so its scripts run on
 * Redis Cluster), a sorted set of its holders ({@code Psem:{NAME}}: member = owner value, score = expiry in server
 * milliseconds), the limit its holders stated ({@code Psemlimit:{NAME}}) and its fencing counter
 * ({@code Psemfence:{NAME}}, no TTL). Every expiry is read from the server's {@code TIME}, never the client's clock;
 * the set and the limit key expire with their last holder, so an abandoned semaphore leaves only its counter.
 */
final class RedisPermitScripts {

    private RedisPermitScripts() {
    }

    /**
     * Acquire. KEYS: holders, limit, fence[, guard]. ARGV: value, lease ms, permits, guard window ms (0: none).
     * Drops expired holders, checks the limit the holders recorded and the count, adds the holder, and takes the
     * fence as the larger of the counter plus one and the server clock in microseconds (so a lost counter never
     * repeats a token). The restart guard is the lock's ({@link RedisScripts#restartGuard}: the same marker, noticing
     * a restart by the server's run_id). Returns {@code {1, fence}} when granted, {@code {0, ms}} when full (ms until
     * the earliest holder expires, or the restart guard's time left), {@code {-1, recorded limit}} when the limits disagree.
     */
    static final LuaScript ACQUIRE = new LuaScript("permitAcquire", RedisScripts.restartGuard(4, 4) + """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            local permits = tonumber(ARGV[3])
            redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
            local held = redis.call('ZCARD', KEYS[1])
            if held > 0 then
              local recorded = tonumber(redis.call('GET', KEYS[2]) or ARGV[3])
              if recorded ~= permits then
                return {-1, recorded}
              end
              if held >= permits then
                local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
                return {0, math.max(0, tonumber(first[2]) - now)}
              end
            end
            redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
            redis.call('SET', KEYS[2], ARGV[3])
            local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
            redis.call('PEXPIREAT', KEYS[1], last[2])
            redis.call('PEXPIREAT', KEYS[2], last[2])
            local us = tonumber(t[1]) * 1000000 + tonumber(t[2])
            local fence = redis.call('INCR', KEYS[3])
            if fence < us then
              redis.call('SET', KEYS[3], string.format('%.0f', us))
              fence = us
            end
            return {1, fence}
            """);

    /**
     * Release. KEYS: holders. ARGV: value, channel, message. Removes the holder's member and publishes; returns 1 if
     * it was still held (not expired), else 0.
     */
    static final LuaScript RELEASE = new LuaScript("permitRelease", """
            local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
            if not score then
              return 0
            end
            redis.call('ZREM', KEYS[1], ARGV[1])
            redis.call('PUBLISH', ARGV[2], ARGV[3])
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            if tonumber(score) <= now then
              return 0
            end
            return 1
            """);

    /**
     * Renew one permit. KEYS: holders, limit. ARGV: value, lease ms. Sets the holder's expiry to now plus the lease
     * if it is still held (ZADD XX); returns 1 if renewed, 0 if the permit was gone or expired (an expired member is
     * removed).
     */
    static final LuaScript RENEW = new LuaScript("permitRenew", """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
            if not score then
              return 0
            end
            if tonumber(score) <= now then
              redis.call('ZREM', KEYS[1], ARGV[1])
              return 0
            end
            redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[2]), ARGV[1])
            local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
            redis.call('PEXPIREAT', KEYS[1], last[2])
            redis.call('PEXPIREAT', KEYS[2], last[2])
            return 1
            """);

    /** Held count. KEYS: holders. The holders whose expiry is after the server's now. */
    static final LuaScript HELD = new LuaScript("permitHeld", """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            return redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')
            """);
}
