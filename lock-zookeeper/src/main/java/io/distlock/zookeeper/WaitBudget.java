package io.distlock.zookeeper;

import io.distlock.spi.Wait;

/**
 * How long one store call may take: the caller's limit (none, a single attempt, or a deadline) and one operation
 * timeout (the URI's connection timeout) for the store to answer. No operation is waited for beyond the caller's
 * deadline plus one operation timeout, so a wait stays bounded also while the server is gone. A single attempt, and
 * every call that does not wait for the lock (release, renew), ignores the caller's interrupt flag as
 * {@link java.util.concurrent.locks.Lock#tryLock()} does.
 */
final class WaitBudget {

    private static final long NO_LIMIT = Long.MAX_VALUE;

    private final long operationNanos;
    /** When the caller stops waiting for the lock; NO_LIMIT if never. */
    private final long callerDeadline;
    /** No operation is waited for past this; NO_LIMIT if only each operation's own timeout applies. */
    private final long hardDeadline;
    private final boolean waits;
    /** The caller's wait, which the core's store closing may end early ({@link Wait#stopped()}); null for a call. */
    private final Wait wait;

    private WaitBudget(long operationNanos, long callerDeadline, long hardDeadline, boolean waits, Wait wait) {
        this.operationNanos = operationNanos;
        this.callerDeadline = callerDeadline;
        this.hardDeadline = hardDeadline;
        this.waits = waits;
        this.wait = wait;
    }

    /** The budget of an acquire that may wait as {@code wait} says. */
    static WaitBudget forAcquire(Wait wait, long operationNanos) {
        if (wait.isForever()) {
            return new WaitBudget(operationNanos, NO_LIMIT, NO_LIMIT, true, wait);
        }
        long deadline = wait.isNone() ? System.nanoTime() : wait.deadlineNanos();
        return new WaitBudget(operationNanos, deadline, saturatedAdd(deadline, operationNanos), wait.isBounded(), wait);
    }

    /** The budget of a call that does not wait for the lock: one operation timeout from now. */
    static WaitBudget forCall(long operationNanos) {
        long now = System.nanoTime();
        return new WaitBudget(operationNanos, now, saturatedAdd(now, operationNanos), false, null);
    }

    /** Whether the caller's interrupt ends the call (only waiting for the lock is interruptible). */
    boolean interruptible() {
        return waits;
    }

    /** Whether this is a single attempt: no queueing, no waiting for the lock. */
    boolean singleAttempt() {
        return !waits;
    }

    /** Whether the caller's deadline has passed (always, for a single attempt), or the store's close ended the wait. */
    boolean expired() {
        return (callerDeadline != NO_LIMIT && System.nanoTime() - callerDeadline >= 0)
                || (wait != null && wait.stopped());
    }

    /** How long to wait for a wake-up now: at most {@code cap}, and never past the caller's deadline. */
    long waitNanos(long cap) {
        if (wait != null && wait.stopped()) {
            return 0;
        }
        if (callerDeadline == NO_LIMIT) {
            return cap;
        }
        return Math.max(0, Math.min(cap, callerDeadline - System.nanoTime()));
    }

    /** Until when an operation started now is waited for: one operation timeout, and never past the hard deadline. */
    long operationDeadline() {
        long own = saturatedAdd(System.nanoTime(), operationNanos);
        return hardDeadline == NO_LIMIT || own - hardDeadline < 0 ? own : hardDeadline;
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? NO_LIMIT - 1 : sum;
    }
}
