package io.distlock.bench;

import java.time.Duration;

/**
 * Shows durations in the report. Reading them is {@link io.distlock.spi.StoreUri#parseDuration}, the one syntax store
 * URIs and command lines share.
 */
final class Durations {

    private Durations() {
    }

    /**
     * Reads a duration that may be finer than a millisecond: a decimal number of milliseconds ({@code 0.25ms}) or
     * microseconds ({@code 250us}); anything else as {@link io.distlock.spi.StoreUri#parseDuration}.
     */
    static Duration parseFine(String text) {
        String s = text.strip().toLowerCase(java.util.Locale.ROOT);
        try {
            if (s.endsWith("us")) {
                return Duration.ofNanos(Math.round(Double.parseDouble(s.substring(0, s.length() - 2)) * 1e3));
            }
            if (s.endsWith("ms") && s.contains(".")) {
                return Duration.ofNanos(Math.round(Double.parseDouble(s.substring(0, s.length() - 2)) * 1e6));
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a duration; e.g. 0.25ms, 250us, 1ms", e);
        }
        return io.distlock.spi.StoreUri.parseDuration(text);
    }

    /** A short form for the report, e.g. {@code 5s} or {@code 500ms}. */
    static String format(Duration d) {
        if (d.toNanos() % 1_000_000 != 0) {
            return (d.toNanos() / 1e6) + "ms";
        }
        if (d.toMillis() % 1000 != 0) {
            return d.toMillis() + "ms";
        }
        return d.toSeconds() + "s";
    }
}
