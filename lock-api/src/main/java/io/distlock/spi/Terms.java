package io.distlock.spi;

import io.distlock.LeaseModel;
import java.time.Duration;
import java.util.Objects;

/**
 * The terms a backend offers locks on: how its leases end and how long a name may be. They are the part of
 * {@link io.distlock.Features} a backend states itself; the core derives the rest (semaphores, admin view, hand-overs)
 * from the abilities the backend has, and {@code Features} checks the whole.
 *
 * @param leaseModel whether leases end by time or with the session
 * @param sessionTimeout for a {@link LeaseModel#SESSION} store, how long after a client goes silent the store ends its
 *        session, and so its leases (null if not known yet); null for a time-bound store
 * @param maxNameLength the longest lock or semaphore name, in characters, the store accepts
 */
public record Terms(LeaseModel leaseModel, Duration sessionTimeout, int maxNameLength) {

    /** Checks that the lease model is given. */
    public Terms {
        Objects.requireNonNull(leaseModel, "leaseModel");
    }

    /** The terms of a store whose leases end by time. */
    public static Terms timed(int maxNameLength) {
        return new Terms(LeaseModel.TIME, null, maxNameLength);
    }

    /** The terms of a store whose leases end with the session, {@code sessionTimeout} after the client goes silent. */
    public static Terms session(Duration sessionTimeout, int maxNameLength) {
        return new Terms(LeaseModel.SESSION, sessionTimeout, maxNameLength);
    }
}
