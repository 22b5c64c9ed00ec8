package io.distlock;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What a store offers, stated once by the store and read by tools (the compatibility kit, the CLI, adapters)
 * instead of trying an operation and catching {@link UnsupportedOperationException}. Every store has locks,
 * fencing tokens and leadership; what varies is here.
 *
 * @param leaseModel how a lease of a holder that went away ends: by time (renewed in the background) or with the
 *        session
 * @param sessionTimeout for a {@link LeaseModel#SESSION} store, how long after a client goes silent its leases end;
 *        empty for a time-bound store
 * @param maxNameLength the longest lock or semaphore name, in characters
 * @param maxPermits the largest semaphore limit; 0 if the store has no semaphores
 * @param admin whether {@link LockStore#admin()} gives an operator view (list held locks, force-release)
 * @param adminListsPermits whether that view also lists held semaphore permits ({@link LockAdmin#listPermits})
 * @param handsOver whether a released lock passes straight to the next thread of the same client queued for it,
 *        in one store operation, without being freed in between
 */
public record Features(LeaseModel leaseModel, Optional<Duration> sessionTimeout, int maxNameLength, int maxPermits,
        boolean admin, boolean adminListsPermits, boolean handsOver) {

    /**
     * Validates the fields.
     *
     * @throws NullPointerException if {@code leaseModel} or {@code sessionTimeout} is null
     * @throws IllegalArgumentException if a time-bound store states a session timeout, {@code maxNameLength} is
     *         below 1, {@code maxPermits} is negative, or permits are listed without an admin view or semaphores
     */
    public Features {
        Objects.requireNonNull(leaseModel, "leaseModel");
        Objects.requireNonNull(sessionTimeout, "sessionTimeout");
        if (sessionTimeout.isPresent() && leaseModel != LeaseModel.SESSION) {
            throw new IllegalArgumentException("only a session-bound store has a session timeout, got "
                    + sessionTimeout.get() + " for " + leaseModel);
        }
        if (maxNameLength < 1) {
            throw new IllegalArgumentException("maxNameLength must be at least 1, got " + maxNameLength);
        }
        if (maxPermits < 0) {
            throw new IllegalArgumentException("maxPermits must not be negative, got " + maxPermits);
        }
        if (adminListsPermits && (!admin || maxPermits == 0)) {
            throw new IllegalArgumentException("permits are listed only by an admin view of a store with semaphores");
        }
    }

    /** Whether the store has semaphores ({@link LockStore#semaphore}); without them that call throws. */
    public boolean semaphores() {
        return maxPermits > 0;
    }
}
