package io.distlock.redis;

import io.distlock.spi.OwnerTokens;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.args.Rawable;

/**
 * The key and argument layout of the lock scripts ({@link RedisScripts#ACQUIRE}, {@link RedisScripts#RELEASE},
 * {@link RedisScripts#RENEW}, {@link RedisScripts#RAISE_FENCE}, {@link RedisScripts#HAND_OVER}) in one place, for
 * every caller: the single store, Sentinel and Cluster
 * ({@link RedisBackend}), Redlock ({@link RedlockBackend}, one call per node), the {@link OrphanReaper} and the
 * batched renewal ({@link BatchRenewer}). A script and the lists built here change together.
 */
final class LockCalls {

    /** One script call: its {@code KEYS} and {@code ARGV}. */
    record Call(List<String> keys, List<String> args) {
    }

    /** A lease time and its milliseconds as sent. */
    private record LeaseMs(Duration leaseTime, Rawable ms) {
    }

    private final RedisKeys keys;
    private final String guardMs;
    private final String waiterMarginMs;
    private final boolean guarded;
    private final Rawable guardMsArg;
    private final Rawable waiterMarginMsArg;
    private final Rawable guardKeyArg;
    /** The id this client queues under in a name's waiter queue, and the release message that wakes it. */
    private final String waiterId;
    private final Rawable waiterIdArg;
    private final Rawable wakeHeadArg;
    /** The lease time of the last encoded acquire: most stores use one lease time, so it is encoded once. */
    private volatile LeaseMs lastLeaseMs;
    /** What every key of a plain name puts before the name ({@code P{}), and the channel before the name. */
    private final byte[] keyHead;
    private final byte[] channelHead;
    /** What the lock, fence and waiting keys put after a plain name (the tag's {@code '}'} and the kind). */
    private static final byte[] LOCK_TAIL = bytes("}" + RedisKeys.Kind.LOCK.suffix());
    private static final byte[] FENCE_TAIL = bytes("}" + RedisKeys.Kind.FENCE.suffix());
    private static final byte[] WAITING_TAIL = bytes("}" + RedisKeys.Kind.WAITING.suffix());

    /**
     * Calls on the keys of {@code keys}; with {@code restartGuard} the acquire passes the guard marker and a window of
     * {@code maxLeaseTime}. A refused acquire leaves the waiting marker for the holder's TTL plus
     * {@code waiterMargin}, or none if it is null (a client whose waiters poll and hear no release messages).
     */
    LockCalls(RedisKeys keys, boolean restartGuard, Duration maxLeaseTime, Duration waiterMargin) {
        this.keys = keys;
        this.guardMs = restartGuard ? Long.toString(maxLeaseTime.toMillis()) : "0";
        this.waiterMarginMs = waiterMargin == null ? "-1" : Long.toString(waiterMargin.toMillis());
        this.guarded = restartGuard;
        this.guardMsArg = SentBytes.of(guardMs);
        this.waiterMarginMsArg = SentBytes.of(waiterMarginMs);
        this.guardKeyArg = SentBytes.of(keys.guard());
        this.waiterId = OwnerTokens.newToken();
        this.waiterIdArg = SentBytes.of(waiterId);
        this.wakeHeadArg = SentBytes.of(keys.wakeChannel(""));
        this.keyHead = bytes(keys.prefix() + "{");
        this.channelHead = bytes(keys.channel(""));
    }

    /** The id this client queues under in a name's waiter queue ({@link RedisScripts#queueWaiter}). */
    String waiterId() {
        return waiterId;
    }

    /** The channel on which a release wakes this client's waiters ({@link RedisScripts#wakeNext}). */
    String wakeChannel() {
        return keys.wakeChannel(waiterId);
    }

    /**
     * The key of {@code name} with {@code tail} (the tag's {@code '}'} and a kind) as {@link RedisKeys} names it,
     * encoded: the name's UTF-8 {@code encodedName}, encoded once per call, is put between the encoded head and tail,
     * instead of building and encoding a string per key. A name that is not its own hash tag gets the key as
     * {@link RedisKeys} builds it.
     */
    private Rawable key(String name, byte[] encodedName, RedisKeys.Kind kind, byte[] tail) {
        return name.indexOf('}') >= 0 ? SentBytes.of(keys.key(kind, name)) : around(encodedName, tail);
    }

    /**
     * {@link #key(String, byte[], RedisKeys.Kind, byte[])} for a call that sends no encoded name of its own: an ASCII
     * name is written straight into the key, so the call encodes no name array.
     */
    private Rawable key(String name, RedisKeys.Kind kind, byte[] tail) {
        if (name.indexOf('}') >= 0 || !isAscii(name)) {
            return key(name, bytes(name), kind, tail);
        }
        int length = name.length();
        byte[] key = Arrays.copyOf(keyHead, keyHead.length + length + tail.length);
        for (int i = 0; i < length; i++) {
            key[keyHead.length + i] = (byte) name.charAt(i);
        }
        System.arraycopy(tail, 0, key, keyHead.length + length, tail.length);
        return new SentBytes(key);
    }

    private static boolean isAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    /** {@code P{}, the encoded name, then {@code tail}: a key of a name that is its own hash tag. */
    private SentBytes around(byte[] encodedName, byte[] tail) {
        byte[] key = Arrays.copyOf(keyHead, keyHead.length + encodedName.length + tail.length);
        System.arraycopy(encodedName, 0, key, keyHead.length, encodedName.length);
        System.arraycopy(tail, 0, key, keyHead.length + encodedName.length, tail.length);
        return new SentBytes(key);
    }

    private static SentBytes join(byte[] head, byte[] tail) {
        byte[] joined = Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, joined, head.length, tail.length);
        return new SentBytes(joined);
    }

    /**
     * {@link #acquire(String, String, Duration)} in encoded form, a call of {@link RedisScripts#ACQUIRE} built from
     * the name's keys, encoded here, and the {@code value} encoded by the caller.
     */
    CommandArguments acquire(String name, Rawable value, Duration leaseTime) {
        CommandArguments call = RedisScripts.ACQUIRE.call(guarded ? 4 : 3)
                .key(key(name, RedisKeys.Kind.LOCK, LOCK_TAIL))
                .key(key(name, RedisKeys.Kind.FENCE, FENCE_TAIL))
                .key(key(name, RedisKeys.Kind.WAITING, WAITING_TAIL));
        if (guarded) {
            call.key(guardKeyArg);
        }
        return call.add(value).add(leaseMs(leaseTime)).add(guardMsArg).add(waiterMarginMsArg).add(waiterIdArg);
    }

    /**
     * The integer of an {@link RedisScripts#ACQUIRE} reply, for {@link #grantedFence(long)} and
     * {@link #retryMillis(long)}: the reply itself, or the first of the two a refusal that queued its client answers.
     */
    static long acquireAnswer(Object acquireReply) {
        return acquireReply instanceof List<?> refused ? (Long) refused.get(0) : (Long) acquireReply;
    }

    /**
     * The clients queued for the name (places not expired) after an {@link RedisScripts#ACQUIRE} reply, this one too;
     * 0 if not told.
     */
    static int queuedClients(Object acquireReply) {
        return acquireReply instanceof List<?> refused ? (int) Math.min(Integer.MAX_VALUE, (Long) refused.get(1)) : 0;
    }

    /** The fence of an {@link RedisScripts#ACQUIRE} reply that granted the lock, or 0 for one that did not. */
    static long grantedFence(long acquireReply) {
        return acquireReply > 0 ? acquireReply : 0;
    }

    /**
     * The ms to wait of an {@link RedisScripts#ACQUIRE} reply that did not grant the lock: the holder's TTL or the
     * restart guard's time left, -1 when unknown.
     */
    static long retryMillis(long acquireReply) {
        if (acquireReply > 0) {
            throw new IllegalArgumentException("acquire reply " + acquireReply + " granted the lock: nothing to wait");
        }
        return -2 - acquireReply; // -1 (unknown) maps to itself
    }

    /**
     * {@link #release(String, String)} in encoded form, a call of {@link RedisScripts#RELEASE}: the keys and channel
     * encoded here from one encoding of the name.
     */
    CommandArguments release(String name, Rawable value) {
        byte[] encodedName = bytes(name);
        return RedisScripts.RELEASE.call(2)
                .key(key(name, encodedName, RedisKeys.Kind.LOCK, LOCK_TAIL))
                .key(key(name, encodedName, RedisKeys.Kind.WAITING, WAITING_TAIL))
                .add(value).add(join(channelHead, encodedName)).add(new SentBytes(encodedName)).add(wakeHeadArg);
    }

    /**
     * {@code leaseTime} in milliseconds as sent; the last one is kept, so a store's usual lease time is encoded once.
     */
    private Rawable leaseMs(Duration leaseTime) {
        LeaseMs last = lastLeaseMs;
        if (last == null || !last.leaseTime().equals(leaseTime)) {
            last = new LeaseMs(leaseTime, SentBytes.of(Long.toString(leaseTime.toMillis())));
            lastLeaseMs = last;
        }
        return last.ms();
    }

    /** Acquire {@code name} for {@code leaseTime} with the stored {@code value} (owner token and description). */
    Call acquire(String name, String value, Duration leaseTime) {
        List<String> args = List.of(value, Long.toString(leaseTime.toMillis()), guardMs, waiterMarginMs, waiterId);
        return guardMs.equals("0")
                ? new Call(List.of(keys.lock(name), keys.fence(name), keys.waiting(name)), args)
                : new Call(List.of(keys.lock(name), keys.fence(name), keys.waiting(name), keys.guard()), args);
    }

    /** Release {@code name} if it still holds {@code value}; no tombstone (the client never re-sends). */
    Call release(String name, String value) {
        return new Call(List.of(keys.lock(name), keys.waiting(name)),
                List.of(value, keys.channel(name), name, keys.wakeChannel("")));
    }

    /** Pass a wake-up of {@code name} on to the next queued client ({@link RedisScripts#PASS_ON}). */
    Call passOn(String name) {
        return new Call(List.of(keys.lock(name), keys.waiting(name)),
                List.of(keys.wakeChannel(""), name, keys.channel(name)));
    }

    /**
     * Release {@code name} if it still holds {@code value}, leaving the tombstone of {@code ownerToken} for
     * {@code tombstoneMs} (a Cluster client re-sends a release whose reply was lost).
     */
    Call releaseWithTombstone(String name, String value, String ownerToken, String tombstoneMs) {
        return new Call(List.of(keys.lock(name), keys.waiting(name), keys.releasedTombstone(name, ownerToken)),
                List.of(value, keys.channel(name), name, keys.wakeChannel(""), tombstoneMs));
    }

    /**
     * Release {@code name} for other clients if it still holds {@code value}, waking the next of them (or publishing
     * {@code message} over an earlier version's marker) and queueing this client for {@code keep}; with a tombstone
     * of {@code ownerToken} for {@code tombstoneMs} when that is not null (Cluster).
     */
    Call releaseForOthers(String name, String value, String message, Duration keep, String ownerToken,
            String tombstoneMs) {
        String keepMs = Long.toString(Math.max(1, keep.toMillis()));
        return tombstoneMs == null
                ? new Call(List.of(keys.lock(name), keys.waiting(name)),
                        List.of(value, keys.channel(name), message, waiterId, keepMs, keys.wakeChannel(""), name))
                : new Call(List.of(keys.lock(name), keys.waiting(name), keys.releasedTombstone(name, ownerToken)),
                        List.of(value, keys.channel(name), message, waiterId, keepMs, keys.wakeChannel(""), name,
                                tombstoneMs));
    }

    /**
     * Hand {@code name} over from the stored {@code fromValue} to {@code toValue}, for {@code leaseTime}, in encoded
     * form (the keys encoded here).
     */
    CommandArguments handOver(String name, Rawable fromValue, Rawable toValue, Duration leaseTime) {
        return RedisScripts.HAND_OVER.call(3)
                .key(key(name, RedisKeys.Kind.LOCK, LOCK_TAIL))
                .key(key(name, RedisKeys.Kind.FENCE, FENCE_TAIL))
                .key(key(name, RedisKeys.Kind.WAITING, WAITING_TAIL))
                .add(fromValue).add(toValue).add(leaseMs(leaseTime));
    }

    /**
     * Redlock: raise the counter at {@code counterKey} (a lock's or a semaphore's fence) on a node to at least
     * {@code fence}.
     */
    Call raiseCounter(String counterKey, long fence, Duration leaseTime) {
        return new Call(List.of(counterKey), List.of(Long.toString(fence), Long.toString(leaseTime.toMillis())));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Adds one lease to a renew batch: its lock key and counter to {@code batchKeys}, lease ms and value to
     * {@code batchArgs}.
     */
    void addRenewal(List<String> batchKeys, List<String> batchArgs, String name, String value, Duration leaseTime) {
        batchKeys.add(keys.lock(name));
        batchKeys.add(keys.fence(name));
        batchArgs.add(Long.toString(leaseTime.toMillis()));
        batchArgs.add(value);
    }
}
