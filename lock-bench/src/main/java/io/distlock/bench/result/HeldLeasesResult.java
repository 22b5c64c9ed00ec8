package io.distlock.bench.result;

import java.time.Duration;

/**
 * Scenario 4 for one contender: {@code leases} locks held at once with background renewal, the store round trips
 * counted over {@code intervals} renewal intervals, and the client heap each held lease costs.
 *
 * @param contender the contender's name
 * @param leases leases held
 * @param leaseTime the lease time asked for (renewal interval is a third of it)
 * @param acquireSeconds time taken to acquire them all
 * @param intervals renewal intervals observed
 * @param roundTrips round trips the client sent to the store in that window
 * @param heapBytesPerLease client heap growth per held lease, after full GCs
 * @param lostAtRelease leases whose release reported them lost (or failed)
 * @param failure null, or why the run could not complete
 */
public record HeldLeasesResult(String contender, int leases, Duration leaseTime, double acquireSeconds,
                               double intervals, long roundTrips, long heapBytesPerLease, long lostAtRelease,
                               String failure) {

    /** A run that could not complete. */
    public static HeldLeasesResult failed(String contender, int leases, Duration leaseTime, String failure) {
        return new HeldLeasesResult(contender, leases, leaseTime, 0, 0, 0, 0, 0, failure);
    }

    /** Round trips per renewal interval. */
    public double roundTripsPerInterval() {
        return intervals == 0 ? 0 : roundTrips / intervals;
    }

    /** Round trips per renewal interval for every 100 held leases: the target is under 1. */
    public double roundTripsPer100LeasesPerInterval() {
        return leases == 0 ? 0 : roundTripsPerInterval() * 100.0 / leases;
    }
}
