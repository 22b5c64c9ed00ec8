package io.distlock.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
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

    /** One script call in encoded form: its {@code KEYS} and {@code ARGV} as the bytes sent. */
    record BinaryCall(List<byte[]> keys, List<byte[]> args) {
    }

    /** A lock's keys, release channel and name, encoded once for the acquire and the release of one lease. */
    record EncodedName(String name, byte[] lock, byte[] fence, byte[] waiting, byte[] channel, byte[] encodedName) {
    }

    private final RedisKeys keys;
    private final String guardMs;
    private final String waiterMarginMs;
    private final byte[] guardMsBytes;
    private final byte[] waiterMarginMsBytes;
    private final byte[] guardKeyBytes;
    /** What the lock, fence and waiting keys put before the name's hash tag, and the channel before the name. */
    private final byte[] lockHead;
    private final byte[] fenceHead;
    private final byte[] waitingHead;
    private final byte[] channelHead;

    /**
     * Calls on the keys of {@code keys}; with {@code restartGuard} the acquire passes the guard marker and a window of
     * {@code maxLeaseTime}. A refused acquire leaves the waiting marker for the holder's TTL plus
     * {@code waiterMargin}, or none if it is null (a client whose waiters poll and hear no release messages).
     */
    LockCalls(RedisKeys keys, boolean restartGuard, Duration maxLeaseTime, Duration waiterMargin) {
        this.keys = keys;
        this.guardMs = restartGuard ? Long.toString(maxLeaseTime.toMillis()) : "0";
        this.waiterMarginMs = waiterMargin == null ? "-1" : Long.toString(waiterMargin.toMillis());
        this.guardMsBytes = bytes(guardMs);
        this.waiterMarginMsBytes = bytes(waiterMarginMs);
        this.guardKeyBytes = bytes(keys.guard());
        this.lockHead = head(keys.lock(""), RedisKeys.tagged(""));
        this.fenceHead = head(keys.fence(""), RedisKeys.tagged(""));
        this.waitingHead = head(keys.waiting(""), RedisKeys.tagged(""));
        this.channelHead = head(keys.channel(""), "");
    }

    /**
     * The keys of {@code name} as {@link RedisKeys} names them, encoded: the hash tag and the name are encoded once
     * and joined to the encoded heads, instead of building and encoding four strings.
     */
    EncodedName encode(String name) {
        byte[] encodedName = bytes(name);
        byte[] tag = bytes(RedisKeys.tagged(name));
        return new EncodedName(name, join(lockHead, tag), join(fenceHead, tag), join(waitingHead, tag),
                join(channelHead, encodedName), encodedName);
    }

    /** The encoded part of {@code key} (built for the empty name) before {@code tail} (the empty name's tag). */
    private static byte[] head(String key, String tail) {
        if (!key.endsWith(tail)) {
            throw new IllegalStateException("key '" + key + "' does not end with the name's tag '" + tail + "'");
        }
        return bytes(key.substring(0, key.length() - tail.length()));
    }

    private static byte[] join(byte[] head, byte[] tail) {
        byte[] joined = Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, joined, head.length, tail.length);
        return joined;
    }

    /** {@link #acquire(String, String, Duration)} in encoded form. */
    BinaryCall acquire(EncodedName name, byte[] value, Duration leaseTime) {
        List<byte[]> args = List.of(value, bytes(Long.toString(leaseTime.toMillis())), guardMsBytes,
                waiterMarginMsBytes);
        return guardMs.equals("0")
                ? new BinaryCall(List.of(name.lock(), name.fence(), name.waiting()), args)
                : new BinaryCall(List.of(name.lock(), name.fence(), name.waiting(), guardKeyBytes), args);
    }

    /** {@link #release(String, String)} in encoded form. */
    BinaryCall release(EncodedName name, byte[] value) {
        return new BinaryCall(List.of(name.lock(), name.waiting()), List.of(value, name.channel(), name.encodedName()));
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

    /**
     * Release {@code name} for other clients if it still holds {@code value}, publishing {@code message}; with a
     * tombstone of {@code ownerToken} for {@code tombstoneMs} when that is not null (Cluster).
     */
    Call releaseForOthers(String name, String value, String message, String ownerToken, String tombstoneMs) {
        return tombstoneMs == null
                ? new Call(List.of(keys.lock(name), keys.waiting(name)), List.of(value, keys.channel(name), message))
                : new Call(List.of(keys.lock(name), keys.waiting(name), keys.releasedTombstone(name, ownerToken)),
                        List.of(value, keys.channel(name), message, tombstoneMs));
    }

    /**
     * Hand {@code name} over from the stored {@code fromValue} to {@code toValue}, for {@code leaseTime}, in encoded
     * form (the new holder's keys are encoded once for its hand-over and its release).
     */
    BinaryCall handOver(EncodedName name, byte[] fromValue, byte[] toValue, Duration leaseTime) {
        return new BinaryCall(List.of(name.lock(), name.fence(), name.waiting()),
                List.of(fromValue, toValue, bytes(Long.toString(leaseTime.toMillis()))));
    }

    /** Redlock: raise the counter at {@code counterKey} (a lock's or a semaphore's fence) on a node to at least {@code fence}. */
    Call raiseCounter(String counterKey, long fence) {
        return new Call(List.of(counterKey), List.of(Long.toString(fence)));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Adds one lease to a renew batch: its lock key to {@code batchKeys}, lease ms and value to {@code batchArgs}. */
    void addRenewal(List<String> batchKeys, List<String> batchArgs, String name, String value, Duration leaseTime) {
        batchKeys.add(keys.lock(name));
        batchArgs.add(Long.toString(leaseTime.toMillis()));
        batchArgs.add(value);
    }
}
