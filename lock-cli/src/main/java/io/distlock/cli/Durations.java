package io.distlock.cli;

import java.time.Duration;
import java.util.Locale;

/**
 * Showing durations in tables and reports. Reading them is {@link io.distlock.spi.StoreUri#parseDuration}, the one
 * syntax store URIs and command lines share.
 */
public final class Durations {

    private Durations() {
    }

    /** {@code 0.42 s}, {@code 12.3 s}, {@code 2 min 5 s}: short and readable. */
    public static String show(Duration d) {
        if (d == null) {
            return "";
        }
        long millis = d.toMillis();
        if (millis < 60_000) {
            return String.format(Locale.ROOT, millis < 10_000 ? "%.2f s" : "%.1f s", millis / 1000.0);
        }
        return (millis / 60_000) + " min " + (millis % 60_000) / 1000 + " s";
    }

    /** Same as {@link #show(Duration)} for a {@link System#nanoTime()} difference. */
    public static String showNanos(long nanos) {
        return show(Duration.ofNanos(nanos));
    }
}
