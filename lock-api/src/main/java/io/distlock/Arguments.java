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
}
