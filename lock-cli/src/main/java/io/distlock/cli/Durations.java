package io.distlock.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reading durations as people and store URIs write them ({@code 3s}, {@code 500ms}, {@code PT3S}) and showing them. */
public final class Durations {

    private static final Pattern SIMPLE = Pattern.compile("(\\d+)\\s*(ms|s|m|h)?");

    private Durations() {
    }

    /**
     * Parses {@code 500ms}, {@code 3s}, {@code 2m}, {@code 1h}, an ISO-8601 {@code PT3S}, or a bare number of
     * milliseconds.
     *
     * @throws IllegalArgumentException naming the text if it is none of these
     */
    public static Duration parse(String text) {
        String s = text.strip().toLowerCase(Locale.ROOT);
        Matcher m = SIMPLE.matcher(s);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            String unit = m.group(2) == null ? "ms" : m.group(2);
            return switch (unit) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofMillis(n);
            };
        }
        try {
            return Duration.parse(text.strip().toUpperCase(Locale.ROOT));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("'" + text + "' is not a duration; expected e.g. 500ms, 3s, 2m or PT3S");
        }
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
