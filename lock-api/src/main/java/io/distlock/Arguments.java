package io.distlock;

import java.time.Duration;
import java.util.Objects;

/** Argument checks shared by the API and every store, so bad input gets the same clear message everywhere. */
public final class Arguments {

    private Arguments() {
    }

    /**
     * Checks a lock name: not null, not empty, at most {@code maxLength} characters, valid Unicode (no unpaired
     * surrogate: stores that keep names as UTF-8 turn one into {@code '?'}, so two names would share one lock).
     *
     * @return the name
     */
    public static String requireLockName(String name, int maxLength) {
        return requireName(name, maxLength, "lock");
    }

    /**
     * Checks a semaphore name: not null, not empty, at most {@code maxLength} characters, valid Unicode.
     *
     * @return the name
     */
    public static String requireSemaphoreName(String name, int maxLength) {
        return requireName(name, maxLength, "semaphore");
    }

    private static String requireName(String name, int maxLength, String what) {
        Objects.requireNonNull(name, what + " name must not be null");
        if (name.isEmpty()) {
            throw new IllegalArgumentException(what + " name must not be empty");
        }
        if (name.length() > maxLength) {
            throw new IllegalArgumentException(what + " name is " + name.length()
                    + " characters long; this store allows at most " + maxLength);
        }
        int unpaired = unpairedSurrogate(name);
        if (unpaired >= 0) {
            throw new IllegalArgumentException(what + " name is not valid Unicode: an unpaired surrogate (\\u"
                    + Integer.toHexString(name.charAt(unpaired)).toUpperCase(java.util.Locale.ROOT) + ") at index "
                    + unpaired + "; a store keeping names as UTF-8 would give it the lock of another name");
        }
        return name;
    }

    /** The index of the first surrogate in {@code s} that is not half of a pair, or -1 if there is none. */
    private static int unpairedSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!Character.isSurrogate(c)) {
                continue;
            }
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
                continue;
            }
            return i;
        }
        return -1;
    }

    /**
     * Checks a duration that must be at least one millisecond and at most {@link LockOptions#MAX_LEASE_TIME} (lease
     * times): a longer one would overflow the clocks that track it after the store had granted it.
     */
    public static Duration requirePositive(Duration d, String what) {
        Objects.requireNonNull(d, what + " must not be null");
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be positive, got " + d);
        }
        if (d.compareTo(Duration.ofMillis(1)) < 0) {
            throw new IllegalArgumentException(what + " must be at least 1 ms, got " + d);
        }
        if (d.compareTo(LockOptions.MAX_LEASE_TIME) > 0) {
            throw new IllegalArgumentException(what + " must be at most " + LockOptions.MAX_LEASE_TIME.toDays()
                    + " days (LockOptions.MAX_LEASE_TIME), got " + d);
        }
        return d;
    }

    /** Checks a duration that may be zero but not negative (waiting times). */
    public static Duration requireNonNegative(Duration d, String what) {
        Objects.requireNonNull(d, what + " must not be null");
        if (d.isNegative()) {
            throw new IllegalArgumentException(what + " must not be negative, got " + d);
        }
        return d;
    }

    /**
     * Checks a semaphore's limit: at least 1, at most {@code max}.
     *
     * @return the limit
     */
    public static int requirePermits(int permits, int max) {
        if (permits < 1) {
            throw new IllegalArgumentException("permits must be at least 1, got " + permits);
        }
        if (permits > max) {
            throw new IllegalArgumentException("permits is " + permits + "; this store allows at most " + max);
        }
        return permits;
    }

    /** How many characters of a name {@link #quoted} shows before it cuts the rest. */
    public static final int QUOTED_NAME_CHARACTERS = 100;

    /**
     * A name as log lines and exception messages show it: in single quotes, with control, format and line-separator
     * characters (and {@code \\} and {@code '}) escaped, so a name holding {@code "\n[ERROR] ..."} cannot forge a log
     * line, and cut after {@value #QUOTED_NAME_CHARACTERS} characters with its length, so a long name cannot flood
     * a log. Names are user input: every message that includes one renders it here.
     */
    public static String quoted(String name) {
        if (name == null) {
            return "null";
        }
        int end = Math.min(name.length(), QUOTED_NAME_CHARACTERS);
        if (end < name.length() && Character.isHighSurrogate(name.charAt(end - 1))
                && Character.isLowSurrogate(name.charAt(end))) {
            end--; // never cut a pair in two
        }
        StringBuilder b = new StringBuilder(end + 24).append('\'');
        escape(name, end, true, b);
        if (end < name.length()) {
            b.append('\u2026');
        }
        b.append('\'');
        if (end < name.length()) {
            b.append(" (").append(name.length()).append(" characters)");
        }
        return b.toString();
    }

    /**
     * {@code text} with what {@link #quoted} escapes escaped ({@code '} excepted), whole and without quotes: for a
     * name printed where it must stay whole, as in a table an operator reads. Null stays null.
     */
    public static String printable(String text) {
        if (text == null) {
            return null;
        }
        StringBuilder b = new StringBuilder(text.length() + 8);
        escape(text, text.length(), false, b);
        return b.toString();
    }

    /** Appends the first {@code end} characters of {@code s} to {@code b}, escaped as {@link #quoted} says. */
    private static void escape(String s, int end, boolean quote, StringBuilder b) {
        for (int i = 0; i < end; i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case '\\' -> b.append("\\\\");
                case '\'' -> b.append(quote ? "\\'" : "'");
                default -> {
                    if (escaped(s, i, c)) {
                        b.append(String.format(java.util.Locale.ROOT, "\\u%04X", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
    }

    /** Whether {@link #quoted} shows the character at {@code i} as a {@code \\uXXXX} escape. */
    private static boolean escaped(String s, int i, char c) {
        if (Character.isSurrogate(c)) { // a pair is shown as it is, half of one is escaped
            return Character.isHighSurrogate(c)
                    ? !(i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1)))
                    : !(i > 0 && Character.isHighSurrogate(s.charAt(i - 1)));
        }
        return switch (Character.getType(c)) {
            case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
                    Character.UNASSIGNED, Character.PRIVATE_USE -> true;
            default -> false;
        };
    }
}
