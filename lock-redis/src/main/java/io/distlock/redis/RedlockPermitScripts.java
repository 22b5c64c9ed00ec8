package io.distlock.redis;

/**
 * The Lua scripts of Redlock semaphores, run on each master alone. A semaphore {@code NAME} of limit {@code N} is
 * {@code N} slot locks {@code P{NAME}:semslot:i} (value: owner value, the lease as TTL), a limit key
 * {@code P{NAME}:semlimit} that lives as long as the longest-lived slot, and the fencing counter
 * {@code P{NAME}:semfence} (kept for the {@link CounterRetention} of its latest lease). A permit is one slot won on
 * a majority of masters, exactly as a Redlock lock.
 */
final class RedlockPermitScripts {

    private RedlockPermitScripts() {
    }

    /** The lines defining {@code recordedLimit(value)}, the semaphores' rule for a limit key, with this store's max. */
    private static final String LIMIT_RULE = RedisScripts.recordedLimit(RedlockPermits.MAX_PERMITS);

    /**
     * Slot states. KEYS: limit, slot 1..N. Returns {@code {recorded limit, pttl of slot 1, ..., slot N}}, where a pttl
     * of -2 is a free slot and the recorded limit is read by {@link RedisScripts#recordedLimit} (0: none, -1: the key
     * holds no limit). With the limit key alone it answers the recorded limit.
     */
    static final LuaScript SLOTS = new LuaScript("redlockPermitSlots", LIMIT_RULE + """
            local out = {recordedLimit(redis.call('GET', KEYS[1]))}
            for i = 2, #KEYS do
              out[#out + 1] = redis.call('PTTL', KEYS[i])
            end
            return out
            """);

    /**
     * Take one slot. KEYS: slot, limit, fence[, guard]. ARGV: value, lease ms, permits, guard window ms (0: none),
     * step. Returns {@code {-1, recorded}} if the limit key states another limit ({@code {-1, -1}} if it holds no
     * limit, by {@link RedisScripts#recordedLimit}: the limit the holders stated is unknown, and taking this call's
     * could let in more holders than theirs, so the caller fails clearly), {@code {1, counter}} when the slot
     * was free or already holds this value (a re-send: the counter as it is, or a new one if it holds no fencing
     * token), else {@code {0, slot pttl}}. The limit key is kept at least as long as the slot.
     *
     * <p>The counter is the lock's rule counted in whole steps: the smallest multiple of {@code step} above the last
     * counter and not below the server TIME in µs, so the caller can add a slot offset below {@code step} to it
     * without meeting another grant's token ({@link RedlockPermits}). The last counter is read by the lock's lines
     * ({@link RedisScripts#readCounter}): one that holds no fencing token counts as none, so the counter starts at
     * the clock, and no line after the slot was set can raise an error. A counter left by an earlier version (not a
     * multiple) is rounded up past itself. A counter whose next step would reach 2^53 (an operator's value just below
     * it; read back, such a counter counts as none) takes back the slot and answers
     * {@link RedisScripts#counterExhausted}: the next grant would start at the clock, below the token handed out.
     */
    static final LuaScript ACQUIRE = new LuaScript("redlockPermitAcquire",
            RedisScripts.restartGuard(4, 4, "{0, %s}") + LIMIT_RULE + """
            local recorded = recordedLimit(redis.call('GET', KEYS[2]))
            if recorded ~= 0 and recorded ~= tonumber(ARGV[3]) then
              return {-1, recorded}
            end
            local function keepLimit()
              if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[2]) then
                redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[2])
              end
            end
            local function nextFence(last)
              local step = tonumber(ARGV[5])
            """ + RedisScripts.CLOCK_US.indent(2) + """
              local fence = math.max(math.floor(last / step) + 1, math.ceil(clock / step)) * step
              if fence >= 9007199254740992 then
                return false
              end
              redis.call('SET', KEYS[3], string.format('%.0f', fence))
            """ + CounterRetention.keep(3, "fence", "clock", "ARGV[2]").indent(2) + """
              return fence
            end
            local fence = false
            if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
            """ + RedisScripts.readCounter(3).indent(2) + """
              fence = nextFence(last)
            elseif redis.call('GET', KEYS[1]) == ARGV[1] then
              redis.call('PEXPIRE', KEYS[1], ARGV[2])
            """ + RedisScripts.readCounter(3).indent(2) + """
              fence = last >= 1 and last or nextFence(last)
            else
              return {0, redis.call('PTTL', KEYS[1])}
            end
            if not fence then
              redis.call('DEL', KEYS[1]) -- this call's own slot
            """ + "  return " + RedisScripts.counterExhausted(3) + "\n" + """
            end
            keepLimit()
            return {1, fence}
            """);

    /**
     * Renew one slot. KEYS: slot, limit, fence counter. ARGV: value, lease ms, permits. Returns 1 if the slot still
     * held the value (its TTL and, if shorter, the limit key's are set to the lease, the counter kept for its
     * {@link CounterRetention}), else 0, also for a slot of another type (an
     * operator's hash: read with {@code redis.pcall}, its WRONGTYPE error is this permit lost on this node, never an
     * error that fails the node's renewals of every other permit).
     */
    static final LuaScript RENEW = new LuaScript("redlockPermitRenew", """
            if redis.pcall('GET', KEYS[1]) ~= ARGV[1] then
              return 0
            end
            redis.call('PEXPIRE', KEYS[1], ARGV[2])
            if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[2]) then
              redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[2])
            end
            """ + CounterRetention.keepStored(3, "ARGV[2]") + """
            return 1
            """);

    /**
     * Release one slot. KEYS: slot, limit, slot 1..N. ARGV: value, channel, message, N. Deletes the slot if it holds
     * the value (and publishes); deletes the limit key once no slot is left, so the name takes a new limit, but only
     * a key recording N ({@link RedisScripts#recordedLimit}): slots 1..N say nothing of another limit's higher slots,
     * nor of those of a limit a key that holds no limit hides. Returns 1 if the slot held the value, else 0.
     */
    static final LuaScript RELEASE = new LuaScript("redlockPermitRelease", LIMIT_RULE + """
            local released = 0
            if redis.call('GET', KEYS[1]) == ARGV[1] then
              redis.call('DEL', KEYS[1])
              redis.call('PUBLISH', ARGV[2], ARGV[3])
              released = 1
            end
            if recordedLimit(redis.call('GET', KEYS[2])) ~= tonumber(ARGV[4]) then
              return released
            end
            for i = 3, #KEYS do
              if redis.call('EXISTS', KEYS[i]) == 1 then
                return released
              end
            end
            redis.call('DEL', KEYS[2])
            return released
            """);
}
