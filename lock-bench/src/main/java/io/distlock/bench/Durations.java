package io.distlock.bench;

import java.time.Duration;

/**
 * Shows durations in the report. Reading them is {@link io.distlock.spi.StoreUri#parseDuration}, the one syntax store
 * URIs and command lines share.
 */
final class Durations {

    private Durations() {
    }

    /** A short form for the report, e.g. {@code 5s} or {@code 500ms}. */
    static String format(Duration d) {
        if (d.toMillis() % 1000 != 0) {
            return d.toMillis() + "ms";
        }
        return d.toSeconds() + "s";
    }
}
