package io.distlock.spi;

import java.time.Duration;

/**
 * How long an acquire may wait for a lock or permit: not at all (a single attempt), until a deadline, or for as
 * long as it takes. The core hands one to {@link LockBackend#acquire} and {@link PermitBackend#acquirePermit}, so a
 * backend asks it instead of reading special timeout values. Deadlines are {@link System#nanoTime()} values.
 */
public final class Wait {

    private static final Wait NONE = new Wait(Kind.NONE, 0, null);
    private static final Wait FOREVER = new Wait(Kind.FOREVER, 0, null);

    private enum Kind { NONE, UNTIL, FOREVER }

    private final Kind kind;
    private final long deadlineNanos;
    /** What ends this wait before its time (the store closing), or null. */
    private final Stop stop;

    private Wait(Kind kind, long deadlineNanos, Stop stop) {
        this.kind = kind;
        this.deadlineNanos = deadlineNanos;
        this.stop = stop;
    }

    /**
     * Ends the waits made with it ({@link #endingAt}) before their time: the core's store closing, so that an acquire
     * waiting in a backend returns "not acquired" at its next look at the wait while the backend's connections are
     * still open (the core then tells the caller that the store was closed).
     */
    public static final class Stop {
        private volatile boolean stopped;

        /** Ends every wait made with this stop: from now on they are {@link Wait#expired() expired}. */
        public void stop() {
            stopped = true;
        }
    }

    /**
     * This wait, also ended by {@code stop}: once stopped it is {@linkplain #expired() expired} with no time left
     * (a single attempt stays a single attempt). A backend that looks at {@link #expired()} or
     * {@link #remainingNanos()} between attempts therefore stops waiting, whatever kind the wait is.
     */
    public Wait endingAt(Stop stop) {
        return kind == Kind.NONE ? this : new Wait(kind, deadlineNanos, stop);
    }

    /** Whether the {@link Stop} this wait was made with ended it before its time. */
    public boolean stopped() {
        return stop != null && stop.stopped;
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
        return System.nanoTime() - deadlineNanos >= 0 ? NONE : new Wait(Kind.UNTIL, deadlineNanos, null);
    }

    /** Waiting at most {@code nanos} from now; zero or less is a single attempt. */
    public static Wait upTo(long nanos) {
        return nanos <= 0 ? NONE : new Wait(Kind.UNTIL, System.nanoTime() + nanos, null);
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

    /** Whether no time is left: always for a single attempt, never for a wait without limit unless stopped. */
    public boolean expired() {
        return stopped() || switch (kind) {
            case NONE -> true;
            case FOREVER -> false;
            case UNTIL -> System.nanoTime() - deadlineNanos >= 0;
        };
    }

    /**
     * The time left in nanoseconds: 0 for a single attempt, a passed deadline or a stopped wait, {@link Long#MAX_VALUE}
     * forever.
     */
    public long remainingNanos() {
        return stopped() ? 0 : switch (kind) {
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
