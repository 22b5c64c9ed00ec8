package io.distlock.redis;

import io.distlock.Arguments;
import io.distlock.LockException;
import io.distlock.spi.Backoff;
import io.distlock.spi.Grant;
import io.distlock.spi.OwnerTokens;
import io.distlock.spi.PermitBackend;
import io.distlock.spi.PermitWaits;
import io.distlock.spi.ReleaseSignals;
import io.distlock.spi.Renewal;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Semaphores on one Redis keyspace (single server, Sentinel master or Cluster), with the scripts of
 * {@link RedisPermitScripts}: one script per acquire, release and renewal, all by the server's clock. Waiters wake on
 * the store's release subscription (a refused waiting attempt leaves the semaphore's waiting marker, and a release
 * that finds it publishes on the release channel pattern the store already listens to, under a name of its own) and
 * poll with a bounded back-off as the safety net. A permit whose acquire
 * reply was lost is taken back in the background by the store's {@link OrphanReaper}.
 */
final class RedisPermits {

    /** The highest limit a Redis semaphore takes. */
    static final int MAX_PERMITS = 100_000;
    /** Prefixes the signal name of a semaphore, so its wake-ups never mix with a lock's of the same name. */
    private static final String SIGNAL = "\u0000sem:";
    /** The waiter margin of an attempt that leaves no waiting marker. */
    private static final String NO_MARKER = "-1";
    private final UnifiedJedis client;
    private final RedisKeys keys;
    private final RedisOptions options;
    private final String store;
    private final ReleaseSignals signals;
    private final boolean slotted;
    /** A refused waiting attempt's marker outlives the earliest holder by the locks' margin: one rule for both. */
    private final String waiterMarginMs = Long.toString(RedisBackend.WAITER_MARGIN.toMillis());
    private OrphanReaper reaper;

    /**
     * Permits over {@code client}.
     *
     * @param slotted whether the client re-sends a script after a lost reply (Cluster): releases leave a tombstone
     */
    RedisPermits(UnifiedJedis client, RedisKeys keys, RedisOptions options, String store, ReleaseSignals signals,
            boolean slotted) {
        this.client = client;
        this.keys = keys;
        this.options = options;
        this.store = store;
        this.signals = signals;
        this.slotted = slotted;
    }

    /** Takes back, through {@code reaper}, the permit of an acquire whose reply was lost. */
    RedisPermits withReaper(OrphanReaper reaper) {
        this.reaper = reaper;
        return this;
    }

    String holders(String name) {
        return keys.key(RedisKeys.Kind.SEM_HOLDERS, name);
    }

    String limit(String name) {
        return keys.key(RedisKeys.Kind.SEM_LIMIT, name);
    }

    String fence(String name) {
        return keys.key(RedisKeys.Kind.SEM_FENCE, name);
    }

    /** The fencing token of each holder, by owner value. */
    String fences(String name) {
        return keys.key(RedisKeys.Kind.SEM_FENCES, name);
    }

    /**
     * The marker a refused waiting attempt leaves so that the next release publishes (no marker: nobody waits, no
     * message), as {@link RedisKeys#waiting} is for a lock. In the semaphore's slot.
     */
    String waiting(String name) {
        return keys.key(RedisKeys.Kind.SEM_WAITING, name);
    }

    /** The tombstone a Cluster release of the permit with {@code ownerToken} leaves, in the semaphore's slot. */
    String releasedTombstone(String name, String ownerToken) {
        return keys.key(RedisKeys.Kind.SEM_RELEASED, name) + ownerToken;
    }

    Grant acquire(String name, int permits, Duration leaseTime, Wait wait) throws InterruptedException {
        // an attempt that does not wait leaves no waiting marker: no release need publish for it
        String margin = wait.isNone() ? NO_MARKER : waiterMarginMs;
        boolean waiting = !wait.isNone();
        return PermitWaits.acquire(signals, SIGNAL + name, wait, Backoff::pollNanos,
                () -> attempt(name, permits, leaseTime, margin, waiting));
    }

    /** One attempt of a single try, or of an acquire that waits ({@code waiting}): the grant, or null. */
    private Grant attempt(String name, int permits, Duration leaseTime, String waiterMargin, boolean waiting) {
        String token = OwnerTokens.newToken();
        String value = OwnerValue.of(token);
        List<String> keyList = options.restartGuard()
                ? List.of(holders(name), limit(name), fence(name), fences(name), waiting(name), keys.guard())
                : List.of(holders(name), limit(name), fence(name), fences(name), waiting(name));
        String guardMs = options.restartGuard() ? Long.toString(options.maxLeaseTime().toMillis()) : "0";
        List<String> args = List.of(value, Long.toString(leaseTime.toMillis()), Integer.toString(permits), guardMs,
                waiterMargin);
        List<?> result;
        try {
            try {
                result = (List<?>) RedisPermitScripts.ACQUIRE.run(client, keyList, args);
            } catch (JedisException e) {
                if (waiting && RedisErrors.isPoolWaitInterrupted(e)) {
                    // interrupted waiting for a pooled connection, nothing sent: an interrupt, not an outage (DEFECTS
                    // S90); "not granted", with the flag set again, and the waiting loop raises InterruptedException
                    if (slotted && reaper != null) { // unless a Cluster re-send: the lost try before may have run (S99)
                        reaper.reap("a permit of semaphore " + Arguments.quoted(name), () -> takeBack(name, value),
                                leaseTime);
                    }
                    Thread.currentThread().interrupt();
                    return null;
                }
                // a single try ignores the interrupt flag: one interrupted in the pool's wait is tried again (S91)
                result = (List<?>) RedisErrors.againAfterInterruptedPoolWait(e, options.timeout(),
                        () -> RedisPermitScripts.ACQUIRE.run(client, keyList, args));
            }
        } catch (JedisException e) {
            if (RedisErrors.mayHaveRun(e, slotted) && reaper != null) {
                // no reply: the script may have run and taken a permit that no one will renew or release
                reaper.reap("a permit of semaphore " + Arguments.quoted(name), () -> takeBack(name, value), leaseTime);
            }
            throw RedisErrors.translate(store, "acquire a permit of semaphore " + Arguments.quoted(name), e);
        }
        long code = (Long) result.get(0);
        long number = (Long) result.get(1);
        if (code == -1 && number == -1) {
            throw RedisErrors.limitKeyHoldsNoLimit("redis store " + store, name, limit(name));
        }
        if (code == -1) {
            throw new IllegalStateException(PermitBackend.limitMismatch(name, (int) number, permits));
        }
        return code == 1 ? new Grant(name, token, number, value) : null;
    }

    /** The release script for an orphan permit (no tombstone: no one will re-send it); 1 if it removed it. */
    private long takeBack(String name, String value) {
        return (Long) RedisPermitScripts.RELEASE.run(client, List.of(holders(name), fences(name), waiting(name)),
                List.of(value, keys.channel(SIGNAL + name), SIGNAL + name));
    }

    boolean release(Grant grant) {
        String name = grant.name();
        String signal = SIGNAL + name;
        List<String> keyList = slotted
                ? List.of(holders(name), fences(name), waiting(name), releasedTombstone(name, grant.ownerToken()))
                : List.of(holders(name), fences(name), waiting(name));
        List<String> args = slotted
                ? List.of((String) grant.handle(), keys.channel(signal), signal, tombstoneMs())
                : List.of((String) grant.handle(), keys.channel(signal), signal);
        String what = "release a permit of semaphore " + Arguments.quoted(name);
        Object reply = RedisErrors.callUninterruptibly(store, what, options.timeout(),
                () -> RedisPermitScripts.RELEASE.run(client, keyList, args));
        signals.signal(signal);
        return ((Long) reply) == 1L;
    }

    /** A re-sent release comes within the client's retry budget (twice the timeout): the tombstone lasts longer. */
    private String tombstoneMs() {
        return Long.toString(options.timeout().multipliedBy(4).toMillis());
    }

    /**
     * Renews {@code renewals} in one pipeline (each routed to its node on a Cluster); one interrupted in the pool's
     * wait is sent again, as a lock's renewal is ({@link BatchRenewer#renew}).
     */
    Set<Grant> renew(List<Renewal> renewals) {
        Set<Grant> lost = new HashSet<>();
        if (renewals.isEmpty()) {
            return lost;
        }
        try {
            try {
                sendAll(renewals, lost);
            } catch (JedisException e) {
                RedisErrors.againAfterInterruptedPoolWait(e, options.timeout(), () -> {
                    lost.clear(); // a renewal sent again sets the same expiry: idempotent
                    sendAll(renewals, lost);
                    return lost;
                });
            }
        } catch (JedisException e) {
            throw RedisErrors.translate(store, "renew " + renewals.size() + " permit(s)", e);
        }
        return lost;
    }

    /** Sends {@code renewals}, again with the script's source for those that met NOSCRIPT; fills {@code lost}. */
    private void sendAll(List<Renewal> renewals, Set<Grant> lost) {
        List<Renewal> retry = send(renewals, false, lost);
        if (!retry.isEmpty()) {
            send(retry, true, lost);
        }
    }

    private List<Renewal> send(List<Renewal> renewals, boolean withSource, Set<Grant> lost) {
        List<Response<Object>> replies = new ArrayList<>(renewals.size());
        try (AbstractPipeline pipeline = client.pipelined()) {
            for (Renewal r : renewals) {
                String name = r.grant().name();
                List<String> k = List.of(holders(name), limit(name), fences(name), fence(name));
                List<String> a = List.of((String) r.grant().handle(), Long.toString(r.leaseTime().toMillis()));
                replies.add(withSource ? RedisPermitScripts.RENEW.queueSource(pipeline, k, a)
                        : RedisPermitScripts.RENEW.queue(pipeline, k, a));
            }
            pipeline.sync();
        }
        List<Renewal> noScript = new ArrayList<>();
        for (int i = 0; i < renewals.size(); i++) {
            Object reply;
            try {
                reply = replies.get(i).get();
            } catch (JedisException e) {
                if (!withSource && LuaScript.isNoScript(e)) {
                    noScript.add(renewals.get(i));
                    continue;
                }
                throw e;
            }
            if (((Long) reply) != 1L) {
                lost.add(renewals.get(i).grant());
            }
        }
        return noScript;
    }

    /**
     * How many permits of {@code name} are held. A count interrupted while it waited for a pooled connection fails as
     * an interrupt, with the flag set again, never as an outage (DEFECTS S90), as the SQL store's count does.
     */
    int held(String name) {
        Object reply;
        try {
            reply = RedisPermitScripts.HELD.run(client, List.of(holders(name)), List.of());
        } catch (JedisException e) {
            if (RedisErrors.isPoolWaitInterrupted(e)) {
                Thread.currentThread().interrupt();
                throw new LockException("interrupted while counting the permits of semaphore " + Arguments.quoted(name)
                        + ": redis store " + store + " was waiting for a connection of its pool", e.getCause());
            }
            throw RedisErrors.translate(store, "count the permits of semaphore " + Arguments.quoted(name), e);
        }
        return (int) (long) (Long) reply;
    }
}
