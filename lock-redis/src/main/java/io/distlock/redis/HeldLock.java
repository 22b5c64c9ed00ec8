package io.distlock.redis;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import redis.clients.jedis.args.Rawable;

/**
 * The handle of a {@link RedisBackend} lease: the value stored at the lock key, and it and the lock's keys encoded
 * once at acquire, so the release sends them without building or encoding a string again. An acquire encodes the
 * value without making it a string ({@link OwnerValue#encoded}); the string is made only where one is needed (a
 * renewal batch, a hand-over, a Cluster release). Equal when the stored values are; its {@code toString} names the
 * lock, never the value (it holds the owner token).
 */
final class HeldLock {

    /** The value as a string; made from {@link #valueArg} on first use when the lease was acquired encoded. */
    private String value;
    private final SentBytes valueArg;
    private final LockCalls.EncodedName keys;

    HeldLock(String value, LockCalls.EncodedName keys) {
        this.value = value;
        this.valueArg = SentBytes.of(value);
        this.keys = keys;
    }

    private HeldLock(byte[] value, LockCalls.EncodedName keys) {
        this.valueArg = new SentBytes(value);
        this.keys = keys;
    }

    /** The handle of a lease whose stored value is {@code value}, UTF-8 encoded (by {@link OwnerValue#encoded}). */
    static HeldLock encoded(byte[] value, LockCalls.EncodedName keys) {
        return new HeldLock(value, keys);
    }

    /** The value at the lock key: owner token and holder description. */
    String value() {
        String v = value;
        if (v == null) { // a racing first use makes an equal string: either may stay
            v = new String(valueArg.getRaw(), StandardCharsets.UTF_8);
            value = v;
        }
        return v;
    }

    /** {@link #value()} in UTF-8, as sent. */
    Rawable valueArg() {
        return valueArg;
    }

    /** The lock's keys, channel and name, encoded. */
    LockCalls.EncodedName keys() {
        return keys;
    }

    /** The stored value behind a grant's handle: a {@code HeldLock}'s, or the handle itself (Redlock's grants). */
    static String valueOf(Object handle) {
        return handle instanceof HeldLock held ? held.value() : (String) handle;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HeldLock other && Arrays.equals(other.valueArg.getRaw(), valueArg.getRaw());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(valueArg.getRaw());
    }

    @Override
    public String toString() {
        return "HeldLock[" + keys.name() + "]";
    }
}
