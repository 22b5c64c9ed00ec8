package io.distlock.bench.core;

import org.HdrHistogram.Histogram;

/**
 * What one measured run of one scenario produced: completed operations, the time they took, their latencies in
 * nanoseconds, and (for contended runs) how many acquisitions went to a different client than the one before.
 */
public record Sample(long operations, long elapsedNanos, Histogram latencyNanos, long crossClientHandoffs) {

    /** A new histogram able to record latencies up to ten minutes at three significant digits. */
    public static Histogram newHistogram() {
        return new Histogram(600_000_000_000L, 3);
    }

    /** Operations per second over the run. */
    public double opsPerSecond() {
        return elapsedNanos == 0 ? 0 : operations * 1e9 / elapsedNanos;
    }
}
