package io.distlock.spi;

import io.distlock.Arguments;
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
 * @param othersWaiting whether another client waited for the lock when the store made this grant (what the store
 *        saw in that operation; {@link OthersWaiting#UNKNOWN} if it cannot tell). Only a
 *        {@linkplain HandOvers#handOver hand-over}'s answer is used: with {@link OthersWaiting#NO} the core keeps
 *        handing the lock over among its threads instead of freeing it for others
 */
public record Grant(String name, String ownerToken, long fencingToken, Object handle, long issuedAtNanos,
        OthersWaiting othersWaiting) {

    /** Validates the fields. */
    public Grant {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(ownerToken, "ownerToken");
        Objects.requireNonNull(othersWaiting, "othersWaiting");
        if (fencingToken <= 0) {
            throw new IllegalArgumentException("fencing token must be positive, got " + fencingToken);
        }
    }

    /** A grant made without knowing whether others wait. */
    public Grant(String name, String ownerToken, long fencingToken, Object handle, long issuedAtNanos) {
        this(name, ownerToken, fencingToken, handle, issuedAtNanos, OthersWaiting.UNKNOWN);
    }

    /** A grant whose issue time is not known yet ({@link PollingLockBackend} fills it in). */
    public Grant(String name, String ownerToken, long fencingToken, Object handle) {
        this(name, ownerToken, fencingToken, handle, -1);
    }

    /** This grant, issued at {@code nanos}. */
    public Grant issuedAt(long nanos) {
        return new Grant(name, ownerToken, fencingToken, handle, nanos, othersWaiting);
    }

    /** Never shows the owner token. */
    @Override
    public String toString() {
        return "Grant[" + Arguments.quoted(name) + ", fence=" + fencingToken + "]";
    }
}
