package io.distlock.redis;

import java.time.Duration;
import java.util.List;

/**
 * The key and argument layout of the lock scripts ({@link RedisScripts#ACQUIRE}, {@link RedisScripts#RELEASE},
 * {@link RedisScripts#RENEW}, {@link RedisScripts#RAISE_FENCE}, {@link RedisScripts#HAND_OVER}) in one place, for every caller: the single store, Sentinel and Cluster
 * ({@link RedisBackend}), Redlock ({@link RedlockBackend}, one call per node), the {@link OrphanReaper} and the
 * batched renewal ({@link BatchRenewer}). A script and the lists built here change together.
 */
final class LockCalls {

    /** One script call: its {@code KEYS} and {@code ARGV}. */
    record Call(List<String> keys, List<String> args) {
    }

    private final RedisKeys keys;
    private final String guardMs;
    private final String waiterMarginMs;

    /**
     * Calls on the keys of {@code keys}; with {@code restartGuard} the acquire passes the guard marker and a window of
     * {@code maxLeaseTime}. A refused acquire leaves the waiting marker for the holder's TTL plus
     * {@code waiterMargin}, or none if it is null (a client whose waiters poll and hear no release messages).
     */
    LockCalls(RedisKeys keys, boolean restartGuard, Duration maxLeaseTime, Duration waiterMargin) {
        this.keys = keys;
        this.guardMs = restartGuard ? Long.toString(maxLeaseTime.toMillis()) : "0";
        this.waiterMarginMs = waiterMargin == null ? "-1" : Long.toString(waiterMargin.toMillis());
    }

    /** Acquire {@code name} for {@code leaseTime} with the stored {@code value} (owner token and description). */
    Call acquire(String name, String value, Duration leaseTime) {
        List<String> args = List.of(value, Long.toString(leaseTime.toMillis()), guardMs, waiterMarginMs);
        return guardMs.equals("0")
                ? new Call(List.of(keys.lock(name), keys.fence(name), keys.waiting(name)), args)
                : new Call(List.of(keys.lock(name), keys.fence(name), keys.waiting(name), keys.guard()), args);
    }

    /** Release {@code name} if it still holds {@code value}; no tombstone (the client never re-sends). */
    Call release(String name, String value) {
        return new Call(List.of(keys.lock(name), keys.waiting(name)), List.of(value, keys.channel(name), name));
    }

    /**
     * Release {@code name} if it still holds {@code value}, leaving the tombstone of {@code ownerToken} for
     * {@code tombstoneMs} (a Cluster client re-sends a release whose reply was lost).
     */
    Call releaseWithTombstone(String name, String value, String ownerToken, String tombstoneMs) {
        return new Call(List.of(keys.lock(name), keys.waiting(name), keys.releasedTombstone(name, ownerToken)),
                List.of(value, keys.channel(name), name, tombstoneMs));
    }

    /** Hand {@code name} over from the stored {@code fromValue} to {@code toValue}, for {@code leaseTime}. */
    Call handOver(String name, String fromValue, String toValue, Duration leaseTime) {
        return new Call(List.of(keys.lock(name), keys.fence(name)),
                List.of(fromValue, toValue, Long.toString(leaseTime.toMillis())));
    }

    /** Redlock: raise the counter at {@code counterKey} (a lock's or a semaphore's fence) on a node to at least {@code fence}. */
    Call raiseCounter(String counterKey, long fence) {
        return new Call(List.of(counterKey), List.of(Long.toString(fence)));
    }

    /** Adds one lease to a renew batch: its lock key to {@code batchKeys}, lease ms and value to {@code batchArgs}. */
    void addRenewal(List<String> batchKeys, List<String> batchArgs, String name, String value, Duration leaseTime) {
        batchKeys.add(keys.lock(name));
        batchArgs.add(Long.toString(leaseTime.toMillis()));
        batchArgs.add(value);
    }
}
