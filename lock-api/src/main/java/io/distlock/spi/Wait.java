package io.distlock.spi;

import java.time.Duration;

/**
 * How long an acquire may wait for a lock or permit: not at all (a single attempt), until a deadline, or for as
 * long as it takes. The core hands one to {@link LockBackend#acquire} and {@link PermitBackend#acquirePermit}, so a
 * backend asks it instead of reading special timeout values. Deadlines are {@link System#nanoTime()} values.
 */
public final class Wait {

    private static final Wait NONE = new Wait(Kind.NONE, 0);
    private static final Wait FOREVER = new Wait(Kind.FOREVER, 0);

    private enum Kind { NONE, UNTIL, FOREVER }

    private final Kind kind;
    private final long deadlineNanos;

    private Wait(Kind kind, long deadlineNanos) {
        this.kind = kind;
        this.deadlineNanos = deadlineNanos;
    }

    /** A single attempt: no waiting. */
    public static Wait none() {
        return NONE;
    }

    /** Waiting with no limit, until granted or interrupted. */
    public static Wait forever() {
        return FOREVER;
    }

    /**
     * Waiting until {@code deadlineNanos} ({@link System#nanoTime()}); a deadline already passed leaves a single
     * attempt.
     */
    public static Wait until(long deadlineNanos) {
        return System.nanoTime() - deadlineNanos >= 0 ? NONE : new Wait(Kind.UNTIL, deadlineNanos);
    }

    /** Waiting at most {@code nanos} from now; zero or less is a single attempt. */
    public static Wait upTo(long nanos) {
        return nanos <= 0 ? NONE : new Wait(Kind.UNTIL, System.nanoTime() + nanos);
    }

    /**
     * Waiting at most {@code maxWait} from now; zero is a single attempt, and a wait too long to count in nanoseconds
     * (over 292 years) waits {@code Long.MAX_VALUE / 4} ns (73 years), so its deadline cannot overflow.
     */
    public static Wait upTo(Duration maxWait) {
        long nanos;
        try {
            nanos = maxWait.toNanos();
        } catch (ArithmeticException tooLong) {
            nanos = Long.MAX_VALUE / 4;
        }
        return upTo(Math.min(nanos, Long.MAX_VALUE / 4));
    }

    /** Whether this is a single attempt. */
    public boolean isNone() {
        return kind == Kind.NONE;
    }

    /** Whether this wait has no limit. */
    public boolean isForever() {
        return kind == Kind.FOREVER;
    }

    /** Whether this wait ends at a deadline. */
    public boolean isBounded() {
        return kind == Kind.UNTIL;
    }

    /** The deadline of a bounded wait ({@link System#nanoTime()}). */
    public long deadlineNanos() {
        if (kind != Kind.UNTIL) {
            throw new IllegalStateException("a wait " + this + " has no deadline");
        }
        return deadlineNanos;
    }

    /** Whether no time is left: always for a single attempt, never for a wait without limit. */
    public boolean expired() {
        return switch (kind) {
            case NONE -> true;
            case FOREVER -> false;
            case UNTIL -> System.nanoTime() - deadlineNanos >= 0;
        };
    }

    /** The time left in nanoseconds: 0 for a single attempt or a passed deadline, {@link Long#MAX_VALUE} forever. */
    public long remainingNanos() {
        return switch (kind) {
            case NONE -> 0;
            case FOREVER -> Long.MAX_VALUE;
            case UNTIL -> Math.max(0, deadlineNanos - System.nanoTime());
        };
    }

    /** {@code nanos}, cut to the time left (never negative). */
    public long cap(long nanos) {
        return Math.max(0, Math.min(nanos, remainingNanos()));
    }

    /** This wait as it stands now: a bounded wait whose deadline has passed is a single attempt. */
    public Wait now() {
        return kind == Kind.UNTIL && expired() ? NONE : this;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case NONE -> "Wait[none]";
            case FOREVER -> "Wait[forever]";
            case UNTIL -> "Wait[" + remainingNanos() / 1_000_000 + " ms left]";
        };
    }
}
