package io.distlock.redis;

import io.distlock.spi.Grant;
import io.distlock.spi.Renewal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * Renews many leases in few round trips: leases are cut into batches of up to {@value #BATCH} leases (two keys each:
 * the lock and its counter), each batch is one {@link RedisScripts#RENEW} call, and all batches go out in one pipeline.
 * On a Cluster a script may only touch one slot, so batches are formed per slot and the pipeline routes each to its
 * node. Batches that meet {@code NOSCRIPT} are sent again with the script's source.
 */
final class BatchRenewer {

    /** The most leases one renew script renews. */
    static final int BATCH = 1000;

    private final UnifiedJedis client;
    private final RedisKeys keys;
    private final LockCalls calls;
    private final String store;
    private final boolean slotted;
    private final Duration poolWait;
    private final AtomicLong roundTrips = new AtomicLong();

    /** A renewer on {@code client}, whose pool waits at most {@code poolWait} for a connection. */
    BatchRenewer(UnifiedJedis client, RedisKeys keys, LockCalls calls, String store, boolean slotted,
            Duration poolWait) {
        this.client = client;
        this.keys = keys;
        this.calls = calls;
        this.store = store;
        this.slotted = slotted;
        this.poolWait = poolWait;
    }

    /**
     * Renews {@code renewals}; returns the grants the store no longer had. The core runs extend's and releaseAfter's
     * renewal without the caller's flag, so a renewal interrupted in the pool's wait is sent again (DEFECTS S91): a
     * releaseAfter that failed there left its lock unrenewed, freed at its lease's end rather than at minHeld.
     */
    Set<Grant> renew(List<Renewal> renewals) {
        if (renewals.isEmpty()) {
            return Set.of();
        }
        List<List<Renewal>> batches = batches(renewals);
        Set<Grant> lost = new HashSet<>();
        try {
            try {
                sendAll(batches, lost);
            } catch (JedisException e) {
                RedisErrors.againAfterInterruptedPoolWait(e, poolWait, () -> {
                    lost.clear(); // a renewal sent again sets the same expiry: idempotent
                    sendAll(batches, lost);
                    return lost;
                });
            }
        } catch (JedisException e) {
            throw RedisErrors.translate(store, "renew " + renewals.size() + " lease(s)", e);
        }
        return lost;
    }

    /** Sends {@code batches}, again with the script's source for those that met NOSCRIPT; fills {@code lost}. */
    private void sendAll(List<List<Renewal>> batches, Set<Grant> lost) {
        List<List<Renewal>> retry = send(batches, false, lost);
        if (!retry.isEmpty()) {
            send(retry, true, lost);
        }
    }

    /** Sends {@code batches} in one pipeline; returns the batches that met NOSCRIPT. */
    private List<List<Renewal>> send(List<List<Renewal>> batches, boolean withSource, Set<Grant> lost) {
        List<Response<Object>> replies = new ArrayList<>(batches.size());
        try (AbstractPipeline pipeline = client.pipelined()) {
            for (List<Renewal> batch : batches) {
                List<String> batchKeys = new ArrayList<>(batch.size());
                List<String> args = new ArrayList<>(batch.size() * 2);
                for (Renewal r : batch) {
                    calls.addRenewal(batchKeys, args, r.grant().name(), OwnerValue.of(r.grant()),
                            r.leaseTime());
                }
                replies.add(withSource ? RedisScripts.RENEW.queueSource(pipeline, batchKeys, args)
                        : RedisScripts.RENEW.queue(pipeline, batchKeys, args));
            }
            pipeline.sync();
            roundTrips.incrementAndGet();
        }
        List<List<Renewal>> noScript = new ArrayList<>();
        for (int i = 0; i < batches.size(); i++) {
            List<Renewal> batch = batches.get(i);
            Object reply;
            try {
                reply = replies.get(i).get();
            } catch (JedisException e) {
                if (!withSource && LuaScript.isNoScript(e)) {
                    noScript.add(batch);
                    continue;
                }
                throw e;
            }
            for (Object position : (List<?>) reply) {
                lost.add(batch.get((int) ((Long) position - 1)).grant());
            }
        }
        return noScript;
    }

    private List<List<Renewal>> batches(List<Renewal> renewals) {
        Map<Integer, List<Renewal>> bySlot = new LinkedHashMap<>();
        for (Renewal r : renewals) {
            int slot = slotted ? JedisClusterCRC16.getSlot(keys.lock(r.grant().name())) : 0;
            bySlot.computeIfAbsent(slot, k -> new ArrayList<>()).add(r);
        }
        List<List<Renewal>> batches = new ArrayList<>();
        for (List<Renewal> group : bySlot.values()) {
            for (int from = 0; from < group.size(); from += BATCH) {
                batches.add(group.subList(from, Math.min(group.size(), from + BATCH)));
            }
        }
        return batches;
    }

    /** How many pipelines (round trips) renewals have sent so far. */
    long roundTrips() {
        return roundTrips.get();
    }
}
