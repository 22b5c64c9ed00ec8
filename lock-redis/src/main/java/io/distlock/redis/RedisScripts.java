package io.distlock.redis;

/**
 * The Lua scripts of the Redis store. Each runs atomically on the server, reads its keys and tokens only from
 * {@code KEYS}/{@code ARGV}, and compares the holder's value before it changes a lock.
 */
final class RedisScripts {

    /** The Lua line that reads the server's clock, never the client's: the local {@code t} is its TIME reply. */
    static final String SERVER_TIME = "local t = redis.call('TIME')\n";

    /** The Lua lines of {@link #SERVER_TIME} and the local {@code now}: that time in ms, the unit of expiries. */
    static final String NOW_MS = SERVER_TIME
            + "local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)\n";

    /** The Lua line that sets the local {@code clock} to {@code t} ({@link #SERVER_TIME}) in µs, the fence's unit. */
    static final String CLOCK_OF_T = "local clock = tonumber(t[1]) * 1000000 + tonumber(t[2])\n";

    /** The Lua lines of {@link #SERVER_TIME} and {@link #CLOCK_OF_T}: the server time in µs. */
    static final String CLOCK_US = SERVER_TIME + CLOCK_OF_T;

    private RedisScripts() {
    }

    /**
     * The restart guard's opening lines of an acquire script, shared by locks and permits (one marker per store, one
     * format): the marker {@code KEYS[key]} holds the history of the data it was written in, the server's
     * {@code run_id} (a new one on every restart) and {@code master_replid} (a new one on every promotion, also of an
     * old master that never resynced: its data is another history than the one the latest locks live in), and the
     * server time (ms) until which nothing is granted; a marker missing, of another type or written in another
     * history opens a window of {@code ARGV[arg]} ms (0: no guard), during which the script returns {@code heldReply}
     * formatted with the Lua expression of the ms left (each script answers "not now" in its own reply format).
     */
    static String restartGuard(int key, int arg, String heldReply) {
        return ("""
            local guardMs = tonumber(ARGV[%2$d])
            if guardMs > 0 then
            """ + NOW_MS.indent(2) + """
              local history = string.match(redis.call('INFO', 'server'), 'run_id:(%%w+)') .. ':'
                  .. string.match(redis.call('INFO', 'replication'), 'master_replid:(%%w+)')
              local marker = redis.pcall('GET', KEYS[%1$d])
              local markedHistory, readyAt
              if type(marker) == 'string' then
                markedHistory, readyAt = string.match(marker, '^(%%w+:%%w+):(%%d+)$')
              end
              if markedHistory ~= history then
                redis.call('SET', KEYS[%1$d], history .. ':' .. string.format('%%.0f', now + guardMs))
                return %3$s
              end
              if now < tonumber(readyAt) then
                return %4$s
              end
            end
            """).formatted(key, arg, heldReply.formatted("guardMs"), heldReply.formatted("(tonumber(readyAt) - now)"));
    }

    /**
     * The lines of a refused permit acquire that leave the waiting marker {@code KEYS[key]} (locks queue their
     * waiting clients instead, {@link #queueWaiter}, so a release wakes one of them): the marker lives at least
     * {@code ttl} (a Lua variable: the ms until the holder, or the earliest holder, expires; -1 unknown, then the lease
     * {@code ARGV[leaseArg]}) plus the margin {@code ARGV[marginArg]} ms, longer than the refused caller sleeps before
     * it tries again; a margin of -1 leaves no marker. A release that finds the marker deletes it and publishes; one
     * that finds none publishes nothing.
     */
    static String leaveWaiterMarker(int key, String ttl, int leaseArg, int marginArg) {
        return """
            local margin = tonumber(ARGV[%4$d])
            if margin >= 0 then
              local keep = %2$s >= 0 and %2$s + margin or tonumber(ARGV[%3$d]) + margin
              if redis.call('PTTL', KEYS[%1$d]) < keep then
                redis.call('SET', KEYS[%1$d], '1', 'PX', keep)
              end
            end
            """.formatted(key, ttl, leaseArg, marginArg);
    }

    /**
     * The lines of a refused lock acquire that queue the waiting client {@code ARGV[idArg]} in the waiter queue
     * {@code KEYS[key]}, a sorted set of client ids scored by the server time (ms) each one's place expires: at least
     * {@code ttl} (a Lua variable: the holder's ms left, -1 unknown, then the lease {@code ARGV[leaseArg]}) plus the
     * margin {@code ARGV[marginArg]} from now, longer than the refused caller sleeps before it tries again; the key
     * itself lives as long as its latest place. A margin of -1 queues nobody. A key of another type (the plain
     * marker of an earlier version) is replaced. A release wakes only the queue's head ({@link #wakeNext}). The Lua
     * variable named {@code queued}, which the caller declares, is set to the places that have not expired, this
     * one's too: an expired place is out of the queue by {@link #wakeNext}'s rule even before a release drops it, so
     * it must not count in the crowd that spreads the waiters' re-checks ({@link QueueCrowd}).
     */
    static String queueWaiter(int key, String ttl, int leaseArg, int marginArg, int idArg, String queued) {
        return ("""
            local margin = tonumber(ARGV[%4$d])
            if margin >= 0 then
              local keep = %2$s >= 0 and %2$s + margin or tonumber(ARGV[%3$d]) + margin
              if redis.call('TYPE', KEYS[%1$d]).ok ~= 'zset' then
                redis.call('DEL', KEYS[%1$d])
              end
            """ + NOW_MS.indent(2) + """
              redis.call('ZADD', KEYS[%1$d], string.format('%%.0f', now + keep), ARGV[%5$d])
              if redis.call('PTTL', KEYS[%1$d]) < keep then
                redis.call('PEXPIRE', KEYS[%1$d], keep)
              end
              %6$s = redis.call('ZCOUNT', KEYS[%1$d], '(' .. string.format('%%.0f', now), '+inf')
            end
            """).formatted(key, ttl, leaseArg, marginArg, idArg, queued);
    }

    /**
     * The lines of a release that wake the next waiter of the waiter queue {@code KEYS[key]} ({@link #queueWaiter}):
     * places that have expired are dropped, the head (the place that expires first) is taken out of the queue and the
     * name {@code ARGV[nameArg]} is published on that client's own wake channel, {@code ARGV[wakeArg]} followed by its
     * id: one message, to one client, whose waiters of the name try again; the others sleep on (each re-checks on its
     * own bounded timer, so a woken client that died or a lost message costs at most that timer). An empty queue
     * publishes nothing. A key of another type (an earlier version's plain marker) is deleted and
     * {@code ARGV[messageArg]} published on the name's channel {@code ARGV[channelArg]}, which wakes every waiter as
     * before. No line raises an error.
     */
    static String wakeNext(int key, int wakeArg, int nameArg, int channelArg, int messageArg) {
        return ("""
            local queued = redis.call('TYPE', KEYS[%1$d]).ok
            if queued == 'zset' then
            """ + NOW_MS.indent(2) + """
              redis.call('ZREMRANGEBYSCORE', KEYS[%1$d], '-inf', now)
              local head = redis.call('ZRANGE', KEYS[%1$d], 0, 0)[1]
              if head then
                redis.call('ZREM', KEYS[%1$d], head)
                redis.call('PUBLISH', ARGV[%2$d] .. head, ARGV[%3$d])
              end
            elseif queued ~= 'none' then
              redis.call('DEL', KEYS[%1$d])
              redis.call('PUBLISH', ARGV[%4$d], ARGV[%5$d])
            end
            """).formatted(key, wakeArg, nameArg, channelArg, messageArg);
    }

    /**
     * The fence rule's first lines, shared by every script that reads a fencing counter (the lock's {@link #ACQUIRE},
     * {@link #HAND_OVER} and {@link #RAISE_FENCE}, the semaphores' {@link RedisPermitScripts#ACQUIRE} and
     * {@link RedlockPermitScripts#ACQUIRE}), so a value an operator left in a counter means the same to all of them:
     * they set the Lua variable {@code last} to the counter at {@code KEYS[key]}, or 0 when it holds no fencing token
     * (missing, not a number, not finite, below 0 or from 2^53 on, none of which a grant writes, or a key of another
     * type, read with {@code redis.pcall} so its WRONGTYPE error counts as none and the grant's {@code SET} replaces
     * it). No line of them can raise an error, so they may follow a script's first write: Redis does not undo a
     * script that stops halfway.
     */
    static String readCounter(int key) {
        return readFencingToken("last", "redis.pcall('GET', KEYS[%d])".formatted(key));
    }

    /**
     * The counter's rule of {@link #readCounter(int)} for any stored fencing token: lines that declare the Lua local
     * {@code variable} and set it to the value of the Lua expression {@code value} (a string, false when missing, or
     * the error table of a {@code redis.pcall}), or to 0 when that holds no fencing token. A holder's stored token is
     * one only when it is at least 1, as the lock's re-sent acquire reads its counter. No line of them can raise an
     * error.
     */
    static String readFencingToken(String variable, String value) {
        return """
            local %1$s = tonumber(%2$s or '')
            if not %1$s or %1$s ~= %1$s or %1$s < 0 or %1$s >= 9007199254740992 then
              %1$s = 0
            end
            """.formatted(variable, value);
    }

    /**
     * The semaphores' rule for their limit key, shared by every script that reads one ({@link RedisPermitScripts}'s
     * and {@link RedlockPermitScripts}'s), so a value an operator left there means the same to all of them: lines that
     * define the Lua local function {@code recordedLimit(value)}, which answers the limit the key's value (false or
     * nil when missing) records: the number when it is a whole number from 1 to {@code max} (what every grant
     * writes), 0 when the key is missing, -1 when it holds no limit. It cannot raise an error.
     */
    static String recordedLimit(int max) {
        return """
            local function recordedLimit(value)
              if not value then
                return 0
              end
              local n = tonumber(value)
              if not n or n ~= math.floor(n) or n < 1 or n > %d then
                return -1
              end
              return n
            end
            """.formatted(max);
    }

    /**
     * The fence rule's next lines, after {@link #readCounter(int)} (shared by the lock's {@link #ACQUIRE} and
     * {@link #HAND_OVER} and the semaphores' {@link RedisPermitScripts#ACQUIRE}): they set {@code fence} to
     * {@code max(last + 1, server TIME in microseconds)} and store it at {@code KEYS[key]}. They count from the local
     * {@code t}, the server's TIME reply the script read before them ({@link #SERVER_TIME}), so a script that read
     * the clock already does not read it again. A
     * fence from 2^53 on (only after an operator's counter just below it) would be read back as none and the next one
     * would start at the clock, below it: instead the lines {@code undo} take back the script's own writes and the
     * script answers {@link #counterExhausted(int)}. The counter is then kept for the {@link CounterRetention} of a
     * lease of {@code leaseMs} (a Lua expression). No line of them raises an error.
     */
    static String nextFence(int key, String undo, String leaseMs) {
        return CLOCK_OF_T + """
            local fence = last < clock and clock or last + 1
            if fence >= 9007199254740992 then
            %2$s  return %3$s
            end
            redis.call('SET', KEYS[%1$d], string.format('%%.0f', fence))
            """.formatted(key, undo.isEmpty() ? "" : undo.indent(2), counterExhausted(key))
                + CounterRetention.keep(key, "fence", "clock", leaseMs);
    }

    /**
     * The error reply of a script whose fence counter {@code KEYS[key]} has no next token below 2^53 (past which a
     * Lua number no longer counts in ones): nothing is granted, the key is named, a deleted counter starts again at
     * the clock.
     */
    static String counterExhausted(int key) {
        return ("redis.error_reply('ERR fence counter ' .. KEYS[%d] .. ' is exhausted: its next fencing token would"
                + " reach 2^53, past which Redis scripts cannot count it exactly; nothing was granted')")
                .formatted(key);
    }

    /**
     * Acquire. KEYS: lock, fence, waiter queue[, guard]. ARGV: value, lease ms, guard window ms (0: no guard), waiter
     * margin ms (-1: queue nobody), waiting client's id. Returns one integer (read by
     * {@link LockCalls#grantedFence(long)} and {@link LockCalls#retryMillis(long)}): the fence, at least 1, when
     * granted; {@code -2 - ms} when held (ms: the holder's TTL, so -1 when unknown) or while the restart guard holds
     * everything back (ms: the time left of its window). One integer, not a table, because this is the call every lock
     * makes: the reply costs the server and the client the least. Only a refusal that queued its client answers two,
     * {@code {-2 - ms, clients queued}} (the places that have not expired, its own too;
     * {@link LockCalls#acquireAnswer(Object)}): how long the queue is tells the client how seldom it may re-check on
     * its own ({@link QueueCrowd}).
     *
     * <p>The fence is {@code max(last + 1, server TIME in microseconds)}: it grows by one per grant while the server
     * keeps its data, and after the server restored an older counter (RDB snapshot, AOF that lost its tail) or none,
     * the clock puts it past every token granted before the crash, which were all at most the clock of their grant
     * (a counter ahead of the clock only gets there by more than one grant per microsecond, and then {@code last + 1}
     * keeps it growing). A counter that holds no fencing token (see {@link #readCounter(int)}) counts as none. A key
     * that already holds this call's value is a grant with the fence it was granted with: a client that re-sends the
     * call after a lost reply (Jedis's Cluster retries) gets its own grant back, its counter kept past the lease the
     * re-send gave the key ({@link CounterRetention}).
     *
     * <p>A refused attempt queues its client in the waiter queue (with a margin of 0 or more, {@link #queueWaiter}):
     * a place that lives at least the holder's TTL plus the margin, i.e. longer than the refused caller sleeps before
     * it tries again. It is queued in the same atomic step that refused, so a release that runs after the refusal
     * finds it, and a release that runs before it was seen by the attempt itself. {@link #RELEASE} wakes only the
     * queue's head and publishes nothing when the queue is empty, so a lock nobody waits for costs no
     * {@code PUBLISH}. A grant takes its client's place out of the queue.
     *
     * <p>The guard marker holds the server's {@code run_id} and {@code master_replid} and the server time (ms) until
     * which nothing is granted. A marker missing, or written by another server process or in another replication
     * history (a restart, even one that restored the marker from a snapshot, a failover to a replica, a fail-back to
     * an old master that kept its own marker), opens a new window of {@code guard} ms.
     */
    static final LuaScript ACQUIRE = new LuaScript("acquire", restartGuard(4, 3, "-2 - %s") + """
            local granted = redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])
            if not granted then
              if redis.call('GET', KEYS[1]) ~= ARGV[1] then
                local ttl = redis.call('PTTL', KEYS[1])
                local queued = -1
            """ + queueWaiter(3, "ttl", 2, 4, 5, "queued").indent(4) + """
                if queued >= 0 then
                  return {-2 - ttl, queued}
                end
                return -2 - ttl
              end
              redis.call('PEXPIRE', KEYS[1], ARGV[2])
            end
            if tonumber(ARGV[4]) >= 0 then
              redis.pcall('ZREM', KEYS[3], ARGV[5]) -- granted: this client waits no more
            end
            """ + readCounter(2) + """
            if not granted and last >= 1 then
            """ + CounterRetention.keepStored(2, "ARGV[2]").indent(2) + """
              return last
            end
            """ + SERVER_TIME + nextFence(2, "redis.call('DEL', KEYS[1]) -- this call's own holder", "ARGV[2]") + """
            return fence
            """);

    /**
     * Release. KEYS: lock, waiter queue[, tombstone]. ARGV: value, channel, name, wake channel head[, tombstone ms].
     * Deletes the lock only if the value matches; then wakes the next waiting client ({@link #wakeNext}: one message
     * that only that client acts on; its waiter tries again, and a refused one queues again). With a tombstone key, a
     * successful release leaves it for the given time, and a release that finds the lock gone but its tombstone present
     * answers 1: that is a re-sent release whose first run succeeded (its reply was lost), not a lease that expired.
     */
    static final LuaScript RELEASE = new LuaScript("release", """
            if redis.call('GET', KEYS[1]) == ARGV[1] then
              redis.call('DEL', KEYS[1])
            """ + wakeNext(2, 4, 3, 2, 3).indent(2) + """
              if KEYS[3] then
                redis.call('SET', KEYS[3], '1', 'PX', ARGV[5])
              end
              return 1
            end
            if KEYS[3] and redis.call('EXISTS', KEYS[3]) == 1 then
              return 1
            end
            return 0
            """);

    /**
     * Release for other clients, at the end of a client's streak of hand-overs while its next thread waits a courtesy
     * for them. KEYS: lock, waiter queue[, tombstone]. ARGV: value, channel, message, this client's id, keep ms, wake
     * channel head, name[, tombstone ms]. As {@link #RELEASE} when another client waits (the queue's head is woken),
     * and then the releasing client queues itself for keep ms: its next thread counts as a waiter, so the other
     * client's hand-overs see one and its next release wakes it. The message, published only over an earlier version's
     * plain marker (which the queue replaces), names the releasing store, whose subscriber wakes none of its own
     * waiters for it.
     */
    static final LuaScript RELEASE_FOR_OTHERS = new LuaScript("releaseForOthers", """
            if redis.call('GET', KEYS[1]) == ARGV[1] then
              redis.call('DEL', KEYS[1])
              if redis.call('EXISTS', KEYS[2]) == 1 then
            """ + wakeNext(2, 6, 7, 2, 3).indent(4) + """
                -- the queue is a sorted set or gone now
            """ + NOW_MS.indent(4) + """
                redis.call('ZADD', KEYS[2], string.format('%.0f', now + tonumber(ARGV[5])), ARGV[4])
                if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[5]) then
                  redis.call('PEXPIRE', KEYS[2], ARGV[5])
                end
              end
              if KEYS[3] then
                redis.call('SET', KEYS[3], '1', 'PX', ARGV[8])
              end
              return 1
            end
            if KEYS[3] and redis.call('EXISTS', KEYS[3]) == 1 then
              return 1
            end
            return 0
            """);

    /**
     * Pass a wake-up on, run by a client that a release woke (it headed the waiter queue) when it no longer waits
     * for the name (its waiter gave up, or its refused attempt did not wait). KEYS: lock, waiter queue. ARGV: wake
     * channel head, name, channel. While the lock is free it wakes the queue's next client as {@link #RELEASE}
     * does ({@link #wakeNext}) and returns 1; while it is held it changes nothing (that holder's release wakes the
     * next) and returns 0.
     */
    static final LuaScript PASS_ON = new LuaScript("passOn", """
            if redis.call('EXISTS', KEYS[1]) == 1 then
              return 0
            end
            """ + wakeNext(2, 1, 2, 3, 2) + """
            return 1
            """);

    /**
     * Renew a batch. KEYS: lock key and fence counter of each lease in turn. ARGV: lease ms and value for each
     * lease in turn. Returns the 1-based positions of the leases that were no longer held. A renewed lease's counter
     * is kept for its {@link CounterRetention} (it must outlive the lease: the admin view reads the holder's token
     * there). A key of another type (an operator's hash) holds no lease: it is read
     * with {@code redis.pcall}, so its WRONGTYPE error is that one lease lost, never an error that aborts the script
     * and costs every other lease of the batch its renewal.
     */
    static final LuaScript RENEW = new LuaScript("renew", """
            local lost = {}
            """ + CLOCK_US + """
            for i = 1, #KEYS / 2 do
              if redis.pcall('GET', KEYS[2 * i - 1]) == ARGV[2 * i] then
                redis.call('PEXPIRE', KEYS[2 * i - 1], ARGV[2 * i - 1])
            """ + RedisScripts.readFencingToken("last", "redis.pcall('GET', KEYS[2 * i])").indent(4)
                    + CounterRetention.keep(0, "last", "clock", "ARGV[2 * i - 1]").replace("KEYS[0]", "KEYS[2 * i]")
                            .indent(4) + """
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
     * Conditional force release. KEYS: lock, fence. ARGV: channel, name, fencing token[, value]. Deletes the lock only
     * if its holder is the one an operator saw: the fence counter holds that fencing token (the rule of
     * {@link #readCounter(int)}: every grant, and nothing else, moves the counter, so it names the holder), or, with
     * a value, the lock holds exactly that value (Redlock's other nodes, after one node matched the token). Returns
     * the value deleted, or false when the lock is free or held by another holder (nothing changed).
     */
    static final LuaScript FORCE_RELEASE_IF = new LuaScript("forceReleaseIf", readCounter(2) + """
            local value = redis.call('GET', KEYS[1])
            if not value then
              return false
            end
            if ARGV[4] then
              if value ~= ARGV[4] then
                return false
              end
            elseif last == 0 or last ~= tonumber(ARGV[3]) then
              return false
            end
            redis.call('DEL', KEYS[1])
            redis.call('PUBLISH', ARGV[1], ARGV[2])
            return value
            """);

    /**
     * Redlock fence write-back. KEYS: fence. ARGV: fence, lease ms. Raises the node's counter to at least the fence
     * handed out, so the next majority, which shares a node with this one, counts past it. A counter that holds no
     * fencing token ({@link #readCounter(int)}) counts as none and is raised too: left as it is, the node's next grant
     * would start at its clock, below a fence handed out from another node's counter ahead of the clock. The counter is
     * kept for its {@link CounterRetention} by this node's clock.
     */
    static final LuaScript RAISE_FENCE = new LuaScript("raiseFence", readCounter(1) + """
            if last < tonumber(ARGV[1]) then
              redis.call('SET', KEYS[1], ARGV[1])
            end
            """ + CounterRetention.keepStored(1, "ARGV[2]") + """
            return 1
            """);

    /**
     * Hand-over to another holder of the same client. KEYS: lock, fence, waiting marker. ARGV: old value, new value,
     * lease ms. If the lock still holds the old value, it gets the new value and lease, and a new fence by the rule of
     * {@link #ACQUIRE} ({@code max(last + 1, server TIME in microseconds)}); returns {@code {fence, waiting}}, or
     * {@code {0, waiting}} (nothing changed) if the old value no longer held it. {@code waiting} is 1 when a refused
     * attempt left the waiting marker, 0 when none did: while the client holds the lock its own threads queue at
     * its local gate, so a marker is another client's waiter (or a stale one of a waiter gone, which only costs a
     * turn it does not take). The lock is never free in between, so nobody is woken. A key that already holds the
     * new value is this hand-over re-sent after a lost reply (Cluster retries): its fence comes back again. Over an
     * exhausted counter ({@link #nextFence}) nothing is written and the error answers: the core then frees the lock
     * with a plain release, which also wakes other clients' waiters (a DEL here would make that release find
     * nothing and report the holder's lease lost).
     */
    static final LuaScript HAND_OVER = new LuaScript("handOver", """
            local waiting = redis.call('EXISTS', KEYS[3])
            local current = redis.call('GET', KEYS[1])
            if current ~= ARGV[1] and current ~= ARGV[2] then
              return {0, waiting}
            end
            """ + readCounter(2) + """
            if current == ARGV[2] and last >= 1 then
              return {last, waiting}
            end
            """ + SERVER_TIME + nextFence(2, "", "ARGV[3]") + """
            redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
            return {fence, waiting}
            """);
}
