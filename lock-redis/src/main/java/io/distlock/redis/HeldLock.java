package io.distlock.redis;

import java.nio.charset.StandardCharsets;

/**
 * The handle of a {@link RedisBackend} lease: the name of the thread it was taken for, which with the grant's owner
 * token gives the value stored at the lock key ({@link OwnerValue}). A process may hold many thousands of leases, so a
 * held lease keeps no encoded value or keys: the token is kept once (in the grant), the thread name is the thread's
 * own string, and a call that sends the value or the keys encodes them then. Equal when the thread names are (the
 * owner token, in the grant, tells leases apart); its {@code toString} shows no value.
 */
final class HeldLock {

    /** The holder's thread name at acquire: the value stays the same if the thread is renamed while it holds. */
    private final String holderName;

    HeldLock(String holderName) {
        this.holderName = holderName;
    }

    /** The handle of a lease taken for {@code holder}. */
    static HeldLock of(Thread holder) {
        return new HeldLock(holder.getName());
    }

    /** The value at the lock key of the lease with {@code ownerToken}: the token and the holder description. */
    String value(String ownerToken) {
        return new String(valueArg(ownerToken).getRaw(), StandardCharsets.UTF_8);
    }

    /** {@link #value(String)} in UTF-8, as sent; encoded at each call, not kept. */
    SentBytes valueArg(String ownerToken) {
        return new SentBytes(OwnerValue.encoded(ownerToken, holderName));
    }

    /**
     * The stored value of {@code grant}: made from its {@code HeldLock} handle and owner token, or the handle itself
     * (Redlock's grants keep the value string).
     */
    static String valueOf(io.distlock.spi.Grant grant) {
        return grant.handle() instanceof HeldLock held ? held.value(grant.ownerToken()) : (String) grant.handle();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HeldLock other && other.holderName.equals(holderName);
    }

    @Override
    public int hashCode() {
        return holderName.hashCode();
    }

    @Override
    public String toString() {
        return "HeldLock[for thread '" + holderName + "']";
    }
}
