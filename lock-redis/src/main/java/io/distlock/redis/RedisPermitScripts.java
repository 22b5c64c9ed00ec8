package io.distlock.redis;

/**
 * The Lua scripts of Redis semaphores. A semaphore {@code NAME} keeps, under one hash tag (so its scripts run on
 * Redis Cluster), a sorted set of its holders ({@code P{NAME}:sem}: member = owner value, score = expiry in server
 * milliseconds), each holder's fencing token ({@code P{NAME}:semfences}, a hash by owner value), the limit its
 * holders stated ({@code P{NAME}:semlimit}), its fencing counter ({@code P{NAME}:semfence}, kept for the
 * {@link CounterRetention} of its latest lease) and the waiting marker a refused waiter leaves
 * ({@code P{NAME}:semwaiting}); on a Cluster a release leaves a short-lived tombstone
 * {@code P{NAME}:semreleased:TOKEN}. Every expiry is read from the server's {@code TIME}, never the client's clock; the
 * set, the hash and the limit key expire with their last holder, and the counter a grace after them (ahead of the
 * clock, longer: see {@link CounterRetention}), so an abandoned semaphore leaves nothing. Every script gives the same
 * answer when run twice with the same arguments.
 */
final class RedisPermitScripts {

    private RedisPermitScripts() {
    }

    /**
     * Acquire. KEYS: holders, limit, fence, fences, waiting marker[, guard]. ARGV: value, lease ms, permits, guard
     * window ms (0: none), waiter margin ms (-1: leave no waiting marker).
     *
     * <p>Counts the holders and, if the set is full or records another limit, first drops the expired ones (below the
     * limit an expired member takes no place a live holder needs: the live ones are fewer still). Refuses a limit other
     * than the recorded one and a full set; else adds the holder, and takes the fence by the lock's rule, from the same
     * Lua lines ({@link RedisScripts#readCounter}, {@link RedisScripts#nextFence}): the larger of the counter plus one
     * and the server clock in microseconds (so a lost counter never repeats a token), a counter that holds no fencing
     * token counting as none; it is kept beside the holder in the hash {@code fences}. No line after the holder was
     * added can raise an error, so a grant is never left half done (Redis undoes nothing): a fences key of another
     * type than a hash (an operator's) holds no fences and is deleted first, a counter of another type counts as none.
     * The set, the hash and the limit key expire with their latest holder: a first holder sets their TTLs, a later one
     * only when its expiry is the latest. A holder that is already in the set with this call's value, unexpired, is
     * the grant of an earlier run of this very call (Jedis's Cluster client re-sends a script whose reply was lost):
     * it is renewed and answered with its own fence, never counted twice; a fence of its own in the hash that holds
     * no fencing token (by the counter's rule, {@link RedisScripts#readFencingToken}, or below 1: an operator's value)
     * is replaced by a new one,
     * so a re-sent call is answered with a token, never that value. A limit key that holds no limit ({@link
     * RedisScripts#recordedLimit}) under live holders refuses: the limit they stated is unknown, and taking the
     * caller's could let in more holders than theirs, while a refusal only costs the wait until they are gone (the
     * next first holder records its limit again). A refusal for the limit also removes this call's own member, an
     * earlier run's grant whose reply was lost: the caller gets no grant, so it would be a holder nobody renews or
     * releases. A refusal for a full set leaves the waiting marker ({@link
     * RedisScripts#leaveWaiterMarker}), so the next release publishes. The restart guard is the lock's ({@link
     * RedisScripts#restartGuard}: the same marker, noticing a restart or a promotion by the server's run_id and
     * master_replid). Returns {@code {1, fence}} when granted, {@code {0, ms}} when full (ms until the earliest holder
     * expires, or the restart guard's time left), {@code {-1, recorded limit}} when the limits disagree,
     * {@code {-1, -1}} when the limit key holds no limit.
     */
    static final LuaScript ACQUIRE = new LuaScript("permitAcquire",
            RedisScripts.restartGuard(6, 4, "{0, %s}") + RedisScripts.recordedLimit(RedisPermits.MAX_PERMITS)
            + RedisScripts.NOW_MS + """
            local lease = tonumber(ARGV[2])
            local permits = tonumber(ARGV[3])
            local expiry = now + lease
            local fencesType = redis.call('TYPE', KEYS[4]).ok
            if fencesType ~= 'hash' and fencesType ~= 'none' then
              redis.call('DEL', KEYS[4]) -- holds no fences: its HDEL/HSET below would fail after the holder was added
            end
            local held = redis.call('ZCARD', KEYS[1])
            local limit = nil
            if held > 0 then
              limit = redis.call('GET', KEYS[2])
              local recorded = limit and recordedLimit(limit) or permits
              if recorded ~= permits or held >= permits then
                local gone = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now)
                for i = 1, #gone do
                  redis.call('ZREM', KEYS[1], gone[i])
                  redis.call('HDEL', KEYS[4], gone[i])
                end
                held = held - #gone
              end
              if held > 0 and recorded ~= permits then
                redis.call('ZREM', KEYS[1], ARGV[1])
                redis.call('HDEL', KEYS[4], ARGV[1])
                return {-1, recorded}
              end
            end
            local mine = false
            if held >= permits then
              if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
                local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
                local wait = math.max(0, tonumber(first[2]) - now)
            """ + RedisScripts.leaveWaiterMarker(5, "wait", 2, 5) + """
                return {0, wait}
              end
              mine = true
              redis.call('ZADD', KEYS[1], 'XX', expiry, ARGV[1])
            elseif redis.call('ZADD', KEYS[1], 'NX', expiry, ARGV[1]) == 0 then
              mine = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1])) > now
              redis.call('ZADD', KEYS[1], 'XX', expiry, ARGV[1])
            end
            """ + RedisScripts.readFencingToken("token", "mine and redis.call('HGET', KEYS[4], ARGV[1])") + """
            if token < 1 then
            """ + RedisScripts.readCounter(3).indent(2) + RedisScripts.nextFence(3, """
                redis.call('ZREM', KEYS[1], ARGV[1]) -- this call's own holder
                redis.call('HDEL', KEYS[4], ARGV[1])
                """, "lease").indent(2) + """
              redis.call('HSET', KEYS[4], ARGV[1], string.format('%.0f', fence))
              token = fence
            end
            if held == 0 then
              redis.call('PEXPIREAT', KEYS[1], expiry)
              redis.call('PEXPIREAT', KEYS[4], expiry)
              redis.call('SET', KEYS[2], ARGV[3], 'PX', lease)
            else
              if not limit then
                redis.call('SET', KEYS[2], ARGV[3])
              end
              local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
              if not limit or last[1] == ARGV[1] then
                redis.call('PEXPIREAT', KEYS[1], last[2])
                redis.call('PEXPIREAT', KEYS[2], last[2])
                redis.call('PEXPIREAT', KEYS[4], last[2])
              end
            end
            return {1, token}
            """);

    /**
     * Release. KEYS: holders, fences, waiting marker[, tombstone]. ARGV: value, channel, message[, tombstone ms].
     * Removes the holder's member and fence; then, only if a refused attempt left the waiting marker, deletes it and
     * publishes (a semaphore nobody waits for is released without a message). Returns 1 if it was still held (not
     * expired), else 0. With a tombstone key (Cluster), a successful release leaves it for the given time, and a
     * release that finds the member gone but its tombstone there answers 1: a re-sent release whose first run
     * succeeded, not an expired permit.
     */
    static final LuaScript RELEASE = new LuaScript("permitRelease", """
            local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
            if not score then
              if KEYS[4] and redis.call('EXISTS', KEYS[4]) == 1 then
                return 1
              end
              return 0
            end
            redis.call('ZREM', KEYS[1], ARGV[1])
            redis.call('HDEL', KEYS[2], ARGV[1])
            if redis.call('DEL', KEYS[3]) == 1 then
              redis.call('PUBLISH', ARGV[2], ARGV[3])
            end
            """ + RedisScripts.NOW_MS + """
            if tonumber(score) <= now then
              return 0
            end
            if KEYS[4] then
              redis.call('SET', KEYS[4], '1', 'PX', ARGV[4])
            end
            return 1
            """);

    /**
     * Renew one permit. KEYS: holders, limit, fences, fence counter. ARGV: value, lease ms. Sets the holder's expiry to
     * now plus the lease if it is still held (ZADD XX); returns 1 if renewed, 0 if the permit was gone or expired (an
     * expired member is removed). Running it twice is harmless. A holders key of another type than a sorted set (an
     * operator's) holds no permit: its WRONGTYPE error, read with {@code redis.pcall}, answers 0, and a fences key of
     * another type is left alone, so one spoiled semaphore fails only its own renewal, never the pipeline's others. A
     * renewed permit's counter is kept for its {@link CounterRetention}.
     */
    static final LuaScript RENEW = new LuaScript("permitRenew", RedisScripts.NOW_MS + """
            local score = redis.pcall('ZSCORE', KEYS[1], ARGV[1])
            if type(score) ~= 'string' then
              return 0
            end
            if tonumber(score) <= now then
              redis.call('ZREM', KEYS[1], ARGV[1])
              redis.pcall('HDEL', KEYS[3], ARGV[1])
              return 0
            end
            redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[2]), ARGV[1])
            local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
            redis.call('PEXPIREAT', KEYS[1], last[2])
            redis.call('PEXPIREAT', KEYS[2], last[2])
            redis.call('PEXPIREAT', KEYS[3], last[2])
            """ + CounterRetention.keepStored(4, "ARGV[2]") + """
            return 1
            """);

    /**
     * The live holders, for the admin view. KEYS: holders, fences. Returns {@code {now ms, value, expiry ms, fence,
     * ...}} for each holder whose expiry is after the server's now; a fence missing or holding no fencing token
     * ({@link RedisScripts#readFencingToken}) is 0.
     */
    static final LuaScript LIST = new LuaScript("permitList", RedisScripts.NOW_MS + """
            local out = {now}
            local live = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf', 'WITHSCORES')
            for i = 1, #live, 2 do
              out[#out + 1] = live[i]
              out[#out + 1] = tonumber(live[i + 1])
            """ + RedisScripts.readFencingToken("fence", "redis.call('HGET', KEYS[2], live[i])").indent(2) + """
              out[#out + 1] = fence
            end
            return out
            """);

    /** Held count. KEYS: holders. The holders whose expiry is after the server's now. */
    static final LuaScript HELD = new LuaScript("permitHeld", RedisScripts.NOW_MS + """
            return redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')
            """);
}
