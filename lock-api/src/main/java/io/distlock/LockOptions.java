package io.distlock;

import java.time.Duration;
import java.util.Objects;

/**
 * How leases of a lock are taken: immutable, each {@code with...} method returns a copy.
 *
 * <p>Defaults: a lease time of 30 seconds, renewed automatically in the background (every third of the lease time)
 * for as long as the lease is held. Turn auto-renew off to get a lease that simply expires. For a scheduled task
 * that must run once per period, use {@link DistributedLock#runIfFree(Duration, LeaseAction)} or
 * {@link DistributedLock#tryRun(Duration, LeaseTask)} with a {@code minHeld} instead: the lease is renewed while the
 * task runs (a long run is never overlapped) and the lock stays taken until {@code minHeld}, so late timers skip.
 *
 * <p>On session-bound stores ({@link LeaseModel#SESSION}: ZooKeeper) both options are ignored: a lease lasts as long
 * as the store's session, which the client keeps alive, and ends with it (see {@link LockStore#leaseModel()}).
 */
public final class LockOptions {

    /** The default lease time: 30 seconds. */
    public static final Duration DEFAULT_LEASE_TIME = Duration.ofSeconds(30);

    /**
     * The longest lease time (and extension) a lock or semaphore takes: 100 years. Longer ones are refused before the
     * store is asked, since their nanoseconds, added to the clock, no longer fit in a {@code long}.
     */
    public static final Duration MAX_LEASE_TIME = Duration.ofDays(36_500);

    private static final LockOptions DEFAULTS = new LockOptions(DEFAULT_LEASE_TIME, true);

    private final Duration leaseTime;
    private final boolean autoRenew;

    private LockOptions(Duration leaseTime, boolean autoRenew) {
        this.leaseTime = leaseTime;
        this.autoRenew = autoRenew;
    }

    /** Lease time 30 s, auto-renew on. */
    public static LockOptions defaults() {
        return DEFAULTS;
    }

    /**
     * A copy with the given lease time: how long a lease lasts without renewal, measured by the store.
     *
     * @throws IllegalArgumentException if {@code leaseTime} is zero, negative, under one millisecond or over
     *         {@link #MAX_LEASE_TIME}
     */
    public LockOptions withLeaseTime(Duration leaseTime) {
        return new LockOptions(Arguments.requirePositive(leaseTime, "leaseTime"), autoRenew);
    }

    /** A copy with auto-renew on or off. */
    public LockOptions withAutoRenew(boolean renew) {
        return new LockOptions(leaseTime, renew);
    }

    /** How long a lease lasts without renewal. */
    public Duration leaseTime() {
        return leaseTime;
    }

    /** Whether leases are renewed in the background while held. */
    public boolean autoRenew() {
        return autoRenew;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LockOptions other && leaseTime.equals(other.leaseTime) && autoRenew == other.autoRenew;
    }

    @Override
    public int hashCode() {
        return Objects.hash(leaseTime, autoRenew);
    }

    @Override
    public String toString() {
        return "LockOptions[leaseTime=" + leaseTime + ", autoRenew=" + autoRenew + "]";
    }
}
