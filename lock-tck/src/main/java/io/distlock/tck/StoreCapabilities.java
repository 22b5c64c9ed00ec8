package io.distlock.tck;

import io.distlock.Features;
import io.distlock.LeaseModel;
import io.distlock.LockStore;
import io.distlock.spi.StoreUri;
import java.time.Duration;
import java.util.Objects;

/**
 * What a store under test can do, declared by its {@link LockStoreTck} subclass. A rule that needs a capability the
 * store lacks is reported as skipped with the reason, never passed silently. {@link #of} reads it from the store's
 * {@link Features}; semaphores and the admin view's permit listing the rules read there directly.
 *
 * @param leaseModel whether leases end by time (Redis, SQL, mem) or with the client's session (ZooKeeper)
 * @param sessionTimeout for {@link LeaseModel#SESSION} stores: how long after a client dies its leases end
 * @param separateJvmClients whether {@link LockStoreTck#storeUri()} can be opened by another JVM
 * @param forceRelease whether the store's admin view can delete a lock behind its holder's back
 * @param expiryMargin extra time, beyond the lease time or session timeout, a dead holder's lock may take to free
 */
public record StoreCapabilities(LeaseModel leaseModel, Duration sessionTimeout, boolean separateJvmClients,
        boolean forceRelease, Duration expiryMargin) {

    /** Validates the fields. */
    public StoreCapabilities {
        Objects.requireNonNull(leaseModel, "leaseModel");
        Objects.requireNonNull(expiryMargin, "expiryMargin");
        if (leaseModel == LeaseModel.SESSION) {
            Objects.requireNonNull(sessionTimeout, "sessionTimeout is required for session-bound stores");
        }
    }

    /** A store with time-bound leases, reachable from other JVMs, with force-release, and a 2 s expiry margin. */
    public static StoreCapabilities timeBound() {
        return new StoreCapabilities(LeaseModel.TIME, null, true, true, Duration.ofSeconds(2));
    }

    /** A store whose leases live as long as the client's session, reachable from other JVMs, with force-release. */
    public static StoreCapabilities sessionBound(Duration sessionTimeout) {
        return new StoreCapabilities(LeaseModel.SESSION, sessionTimeout, true, true, Duration.ofSeconds(5));
    }

    /**
     * What {@code store}, opened from {@code uri}, declares of itself ({@link LockStore#features()}): its lease model
     * and session timeout, whether its admin view exists (force-release), and separate-JVM clients unless it is the
     * in-memory {@code mem:} store, which lives inside one JVM. The expiry margin is that of {@link #timeBound()} or {@link #sessionBound}.
     *
     * @throws IllegalStateException if a session-bound store declares no session timeout
     */
    public static StoreCapabilities of(LockStore store, String uri) {
        Features features = store.features();
        StoreCapabilities declared = features.leaseModel() == LeaseModel.SESSION
                ? sessionBound(features.sessionTimeout().orElseThrow(() -> new IllegalStateException(
                        "store " + store + " is session-bound but declares no session timeout")))
                : timeBound();
        return declared.withForceRelease(features.admin())
                .withSeparateJvmClients(!StoreUri.parse(uri).scheme().equals("mem"));
    }

    /** A copy with separate-JVM clients on or off (the in-memory store has none). */
    public StoreCapabilities withSeparateJvmClients(boolean on) {
        return new StoreCapabilities(leaseModel, sessionTimeout, on, forceRelease, expiryMargin);
    }

    /** A copy with force-release on or off. */
    public StoreCapabilities withForceRelease(boolean on) {
        return new StoreCapabilities(leaseModel, sessionTimeout, separateJvmClients, on, expiryMargin);
    }

    /** A copy with another session timeout (session-bound stores). */
    public StoreCapabilities withSessionTimeout(Duration timeout) {
        return new StoreCapabilities(leaseModel, timeout, separateJvmClients, forceRelease, expiryMargin);
    }

    /** A copy with another expiry margin. */
    public StoreCapabilities withExpiryMargin(Duration margin) {
        return new StoreCapabilities(leaseModel, sessionTimeout, separateJvmClients, forceRelease, margin);
    }
}
