package io.distlock.bench;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses durations as people type them on a command line: {@code 500ms}, {@code 5s}, {@code 2m} or ISO {@code PT5S}. */
final class Durations {

    private static final Pattern SIMPLE = Pattern.compile("(\\d+)(ms|s|m)");

    private Durations() {
    }

    static Duration parse(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        Matcher m = SIMPLE.matcher(t);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                default -> Duration.ofMinutes(n);
            };
        }
        try {
            return Duration.parse(text.strip().toUpperCase(Locale.ROOT));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a duration; use for example 500ms, 5s, 2m or PT5S", e);
        }
    }

    /** A short form for the report, e.g. {@code 5s} or {@code 500ms}. */
    static String format(Duration d) {
        if (d.toMillis() % 1000 != 0) {
            return d.toMillis() + "ms";
        }
        return d.toSeconds() + "s";
    }
}
