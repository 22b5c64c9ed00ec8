package io.distlock.spi;

import java.util.Objects;

/**
 * What a backend hands back when it grants a lock: the lock name, the secret owner token that proves ownership in
 * release and renew, the fencing token, and any store-specific handle (a ZooKeeper node path, say).
 *
 * @param name the lock name
 * @param ownerToken a random value known only to this holder; compared by the store on release and renew
 * @param fencingToken greater than zero, strictly increasing across successive holders of {@code name}
 * @param handle store-specific data the backend needs to release or renew, or null
 * @param issuedAtNanos {@link System#nanoTime()} just before the request that won the lock was sent, or -1 if
 *        unknown; the core counts the lease time from here, so the local estimate of expiry is never late
 */
public record Grant(String name, String ownerToken, long fencingToken, Object handle, long issuedAtNanos) {

    /** Validates the fields. */
    public Grant {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(ownerToken, "ownerToken");
        if (fencingToken <= 0) {
            throw new IllegalArgumentException("fencing token must be positive, got " + fencingToken);
        }
    }

    /** A grant whose issue time is not known yet ({@link PollingLockBackend} fills it in). */
    public Grant(String name, String ownerToken, long fencingToken, Object handle) {
        this(name, ownerToken, fencingToken, handle, -1);
    }

    /** This grant, issued at {@code nanos}. */
    public Grant issuedAt(long nanos) {
        return new Grant(name, ownerToken, fencingToken, handle, nanos);
    }

    /** Never shows the owner token. */
    @Override
    public String toString() {
        return "Grant[" + name + ", fence=" + fencingToken + "]";
    }
}
