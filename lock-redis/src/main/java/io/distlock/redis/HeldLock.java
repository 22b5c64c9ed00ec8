package io.distlock.redis;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import io.distlock.spi.Grant;
import redis.clients.jedis.args.Rawable;

/**
 * The handle of a {@link RedisBackend} lease: the value stored at the lock key (owner token and holder description),
 * UTF-8 encoded once at acquire and sent as it is by the release (it is the {@link Rawable} itself, as a
 * {@link SentBytes} is: not copied). A process may hold many thousands of leases, so a held lease keeps only these
 * bytes: the lock's keys are encoded by each call that sends them, and the value string is made only where one is
 * needed (a renewal batch, a Cluster release), not kept. Equal when the stored values are; its {@code toString}
 * shows no value (it holds the owner token).
 */
final class HeldLock implements Rawable {

    private final byte[] value;

    /** The handle of a lease whose stored value is {@code value}, UTF-8 encoded (by {@link OwnerValue#encoded}). */
    HeldLock(byte[] value) {
        this.value = value;
    }

    /** The value at the lock key: owner token and holder description; a new string at each call. */
    String value() {
        return new String(value, StandardCharsets.UTF_8);
    }

    /** {@link #value()} in UTF-8, as sent. */
    @Override
    public byte[] getRaw() {
        return value;
    }

    /** The stored value of {@code grant}: its {@code HeldLock}'s, or the handle itself (Redlock's grants). */
    static String valueOf(Grant grant) {
        return grant.handle() instanceof HeldLock held ? held.value() : (String) grant.handle();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HeldLock other && Arrays.equals(other.value, value);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return "HeldLock[" + value.length + " bytes]";
    }
}
