package io.distlock;

/**
 * Told of a store's background work that a caller of the API cannot see, for metrics: each round trip that renews
 * held leases. Methods run on the store's renewal thread and must return quickly; the defaults do nothing, and a
 * store with no listener pays one field read per round trip.
 */
public interface LockStoreListener {

    /** A listener that does nothing. */
    LockStoreListener NONE = new LockStoreListener() {
    };

    /**
     * One renewal round trip answered: {@code leases} renewed in one call, {@code lost} of them no longer held by
     * the store, in {@code nanos}.
     */
    default void renewed(int leases, int lost, long nanos) {
    }

    /**
     * One renewal round trip for {@code leases} leases failed (the store could not be reached, or refused the call);
     * it is retried with back-off.
     */
    default void renewalFailed(int leases, long nanos, RuntimeException cause) {
    }
}
