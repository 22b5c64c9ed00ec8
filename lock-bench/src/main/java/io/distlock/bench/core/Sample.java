package io.distlock.bench.core;

import org.HdrHistogram.Histogram;

/**
 * What one measured run of one scenario produced: completed operations, the time they took, their latencies in
 * nanoseconds, (for contended runs) how many acquisitions went to a different client than the one before, and the
 * heap bytes allocated meanwhile by the benchmark threads inside their loops and by every other thread of the JVM
 * (-1 when not measured).
 */
public record Sample(long operations, long elapsedNanos, Histogram latencyNanos, long crossClientHandoffs,
                     long callingThreadBytes, long otherThreadBytes) {

    /** A run without allocation figures. */
    public Sample(long operations, long elapsedNanos, Histogram latencyNanos, long crossClientHandoffs) {
        this(operations, elapsedNanos, latencyNanos, crossClientHandoffs, -1, -1);
    }

    /** A new histogram able to record latencies up to ten minutes at three significant digits. */
    public static Histogram newHistogram() {
        return new Histogram(600_000_000_000L, 3);
    }

    /** Operations per second over the run. */
    public double opsPerSecond() {
        return elapsedNanos == 0 ? 0 : operations * 1e9 / elapsedNanos;
    }
}
