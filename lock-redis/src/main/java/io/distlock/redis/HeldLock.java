package io.distlock.redis;

import redis.clients.jedis.args.Rawable;

/**
 * The handle of a {@link RedisBackend} lease: the value stored at the lock key, and it and the lock's keys encoded
 * once at acquire, so the release sends them without building or encoding a string again. Equal when the stored
 * values are; its {@code toString} names the lock, never the value (it holds the owner token).
 */
final class HeldLock {

    private final String value;
    private final SentBytes valueArg;
    private final LockCalls.EncodedName keys;

    HeldLock(String value, LockCalls.EncodedName keys) {
        this.value = value;
        this.valueArg = SentBytes.of(value);
        this.keys = keys;
    }

    /** The value at the lock key: owner token and holder description. */
    String value() {
        return value;
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
        return handle instanceof HeldLock held ? held.value : (String) handle;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HeldLock other && other.value.equals(value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    @Override
    public String toString() {
        return "HeldLock[" + keys.name() + "]";
    }
}
