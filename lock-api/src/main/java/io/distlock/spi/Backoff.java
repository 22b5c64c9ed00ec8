package io.distlock.spi;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The wait between retries and polls, said once: a delay that doubles with each failure in a row up to a cap, and
 * jitter that spreads many clients' retries, so they neither hammer a store nor retry in lockstep.
 */
public final class Backoff {

    private static final long POLL_FIRST_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    private static final long POLL_MAX_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private Backoff() {
    }

    /**
     * {@code first} doubled once per failure in a row ({@code failures}; 0 or less: {@code first}), at most
     * {@code max}; any unit, and never an overflow.
     */
    public static long exponential(long first, long max, int failures) {
        int doublings = Math.max(failures, 0);
        if (doublings >= Long.SIZE - 1 || first > max >> doublings) {
            return max;
        }
        return first << doublings;
    }

    /** A random delay from half of {@code delay} to all of it. */
    public static long jittered(long delay) {
        return delay / 2 + ThreadLocalRandom.current().nextLong(delay / 2 + 1);
    }

    /** A random delay from {@code base} to half of it more. */
    public static long jitteredAbove(long base) {
        return base + ThreadLocalRandom.current().nextLong(base / 2 + 1);
    }

    /**
     * The default poll of a waiting acquire after {@code failures} failed attempts: from 2 ms doubling up to 250 ms,
     * {@link #jittered}.
     */
    public static long pollNanos(int failures) {
        return jittered(exponential(POLL_FIRST_NANOS, POLL_MAX_NANOS, failures));
    }
}
