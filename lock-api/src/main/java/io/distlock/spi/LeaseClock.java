package io.distlock.spi;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The formulas of lease time, said once: how much of a lease the client counts on (the lease less a drift allowance
 * of 1% and 2 ms, as Redlock's validity), how often a lease is renewed, and how a failing renewal backs off. All
 * times are {@link System#nanoTime()} durations, counted from the moment the request that set the lease was sent.
 */
public final class LeaseClock {

    /** The shortest renewal interval and retry delay. */
    public static final long MIN_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    private static final long FIRST_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final long MAX_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

    private LeaseClock() {
    }

    /** The clock-drift allowance for {@code leaseTime}: 1% of it plus 2 ms. */
    public static long driftNanos(Duration leaseTime) {
        return leaseTime.toNanos() / 100 + TimeUnit.MILLISECONDS.toNanos(2);
    }

    /** The part of a lease the client counts on: {@code leaseTime} less the drift allowance, never negative. */
    public static long validityNanos(Duration leaseTime) {
        return Math.max(0, leaseTime.toNanos() - driftNanos(leaseTime));
    }

    /** How often a lease is renewed: every third of its lease time. */
    public static long renewIntervalNanos(Duration leaseTime) {
        return Math.max(MIN_TICK_NANOS, leaseTime.toNanos() / 3);
    }

    /**
     * How long to wait before retrying a renewal after {@code failures} failed ones in a row: from 50 ms, doubling,
     * at most a second and at most a third of the renewal interval, so a lease gets several tries before it ends.
     */
    public static long retryDelayNanos(Duration leaseTime, int failures) {
        long cap = Math.max(MIN_TICK_NANOS, Math.min(MAX_RETRY_NANOS, renewIntervalNanos(leaseTime) / 3));
        return Backoff.exponential(FIRST_RETRY_NANOS, cap, failures - 1);
    }
}
