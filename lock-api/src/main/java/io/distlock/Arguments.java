package io.distlock;

import java.time.Duration;
import java.util.Objects;

/** Argument checks shared by the API and every store, so bad input gets the same clear message everywhere. */
public final class Arguments {

    private Arguments() {
    }

    /**
     * Checks a lock name: not null, not empty, at most {@code maxLength} characters.
     *
     * @return the name
     */
    public static String requireLockName(String name, int maxLength) {
        Objects.requireNonNull(name, "lock name must not be null");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("lock name must not be empty");
        }
        if (name.length() > maxLength) {
            throw new IllegalArgumentException("lock name is " + name.length()
                    + " characters long; this store allows at most " + maxLength);
        }
        return name;
    }

    /** Checks a duration that must be at least one millisecond (lease times). */
    public static Duration requirePositive(Duration d, String what) {
        Objects.requireNonNull(d, what + " must not be null");
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be positive, got " + d);
        }
        if (d.compareTo(Duration.ofMillis(1)) < 0) {
            throw new IllegalArgumentException(what + " must be at least 1 ms, got " + d);
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
}
