package io.distlock.redis;

import java.time.Duration;

/**
 * How long a name's fencing counter ({@code P{NAME}:fence}, {@code P{NAME}:semfence}) is kept, so a name used once
 * leaves nothing behind (issue #33) while its tokens still never repeat: every script that writes or renews a
 * counter holding {@code value} sets its TTL to at least
 * {@code ceil((value - clock) / 1000) + lease + }{@value #GRACE_MS} ms, where {@code clock} is the server's
 * {@code TIME} in microseconds of the same script, and never shortens a TTL already longer (except that a grant's
 * {@code SET} of a new value clears it: the retention set right after covers that value, and a semaphore holder's
 * next renewal lengthens it again).
 *
 * <p>Why that is safe: every token is {@code max(last + 1, clock)} ({@link RedisScripts#nextFence}), so a deleted
 * counter starts again at the server clock. A key's TTL is an absolute server time; it ends no earlier than the
 * moment the server clock reads {@code value} plus the lease plus the grace. From then on the clock is past every
 * token the counter ever held, also a counter that ran ahead of the clock (many grants within the same
 * microseconds, or Redlock raising a node's counter to another node's fence: the ahead term counts in this node's
 * clock), so the next grant's token, at least the clock, is larger. Because the expiry is absolute, a clock that
 * steps back keeps the key longer rather than shorter. A counter outlives its holder's lease (renewals extend it
 * too), so the admin view and force-release by token, which read it, still see the holder. A counter that holds no
 * fencing token counts as 0 (the clock is past it at once). What it still trusts is the rule the counter already
 * trusted: a server clock that does not go back across a restart or failover by more than the grace.
 */
final class CounterRetention {

    /** The grace past the lease, in ms: covers a holder's last renewal in flight and small clock steps. */
    static final long GRACE_MS = 2_000;

    /** {@link #GRACE_MS} as a duration. */
    static final Duration GRACE = Duration.ofMillis(GRACE_MS);

    private CounterRetention() {
    }

    /**
     * Lua lines that keep the counter {@code KEYS[key]}, holding the Lua number {@code value}, by the rule above:
     * {@code clock} is the Lua expression of the server clock in µs, {@code leaseMs} that of the lease in ms. A TTL
     * already longer is kept, a key without one (written by an older version or an operator) gets one, a missing
     * key stays missing. No line of them raises an error.
     */
    static String keep(int key, String value, String clock, String leaseMs) {
        return """
            do
              local ahead = math.max(0, math.ceil((%2$s - %3$s) / 1000))
              local retain = ahead + tonumber(%4$s) + %5$d
              if redis.call('PTTL', KEYS[%1$d]) < retain then
                redis.call('PEXPIRE', KEYS[%1$d], string.format('%%.0f', retain))
              end
            end
            """.formatted(key, value, clock, leaseMs, GRACE_MS);
    }

    /**
     * As {@link #keep(int, String, String, String)} for a counter the script did not read: reads it by the
     * counter's rule ({@link RedisScripts#readCounter}) and the server clock itself.
     */
    static String keepStored(int key, String leaseMs) {
        return "do\n" + RedisScripts.readFencingToken("stored", "redis.pcall('GET', KEYS[%d])".formatted(key))
                + RedisScripts.CLOCK_US + keep(key, "stored", "clock", leaseMs) + "end\n";
    }
}
