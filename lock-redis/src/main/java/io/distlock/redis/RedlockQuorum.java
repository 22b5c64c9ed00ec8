package io.distlock.redis;

import io.distlock.spi.LeaseClock;
import java.time.Duration;

/**
 * Redlock's arithmetic for {@code nodes} independent masters: a lock is won when a majority ({@code nodes / 2 + 1})
 * granted it and time is left of the lease after the time the attempt took and an allowance for clock drift:
 * {@code validity = lease - elapsed - (lease * 0.01 + 2 ms)}. Pure functions of their inputs, so they are tested
 * with made-up elapsed times.
 *
 * @param nodes the number of masters
 */
record RedlockQuorum(int nodes) {

    /** Validates the node count. */
    RedlockQuorum {
        if (nodes < 1) {
            throw new IllegalArgumentException("redlock needs at least one node, got " + nodes);
        }
    }

    /** The majority: how many nodes must agree. */
    int quorum() {
        return nodes / 2 + 1;
    }

    /** The drift allowance of a lease: 1% of it plus 2 ms, as the core counts it ({@link LeaseClock}). */
    static long driftNanos(Duration lease) {
        return LeaseClock.driftNanos(lease);
    }

    /** The time left of {@code lease} after an attempt that took {@code elapsedNanos}; not positive means none. */
    static long validityNanos(Duration lease, long elapsedNanos) {
        return lease.toNanos() - elapsedNanos - driftNanos(lease);
    }

    /** Whether an attempt that {@code granted} nodes accepted, taking {@code elapsedNanos}, won the lock. */
    boolean won(int granted, Duration lease, long elapsedNanos) {
        return granted >= quorum() && validityNanos(lease, elapsedNanos) > 0;
    }

    /** Whether enough nodes answered ({@code failed} did not) for a majority to be possible at all. */
    boolean reachable(int failed) {
        return nodes - failed >= quorum();
    }
}
