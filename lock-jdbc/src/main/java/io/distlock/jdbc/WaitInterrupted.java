package io.distlock.jdbc;

import io.distlock.LockException;

/**
 * A wait of the client itself was interrupted: for another thread of this JVM checking or creating a table (a turn
 * in {@link SchemaChanges}), or for the pool to hand over a connection. Neither is a failure of the database, so it is
 * never reported as an SQL error or an outage. Unchecked, so it passes the SQL work's wrappers untouched; the thread's
 * flag is clear, as after any {@link InterruptedException} (its cause). The caller raises it as {@link #unchecked}; a
 * call that throws InterruptedException turns that into one with {@link #interruption}.
 */
final class WaitInterrupted extends RuntimeException {
    private static final long serialVersionUID = 1L;

    WaitInterrupted(String message, InterruptedException cause) {
        super(message, cause);
    }

    /**
     * For a call that cannot throw InterruptedException (a store's open, a count): a {@link LockException} saying
     * it was interrupted while {@code what}, never an outage, with the thread's interrupt flag set again.
     */
    LockException unchecked(String what) {
        Thread.currentThread().interrupt();
        return new LockException("interrupted while " + what + ": " + getMessage(), getCause());
    }

    /**
     * Whether {@code e} is an interrupt {@link #unchecked} raised on this thread, whose flag is still set: a waiting
     * acquire ends it as its InterruptedException.
     */
    static boolean raised(LockException e) {
        return e.getCause() instanceof InterruptedException && Thread.currentThread().isInterrupted();
    }

    /**
     * For a call that throws InterruptedException, given an interrupt {@link #unchecked} {@link #raised} on this
     * thread: an InterruptedException with its message and cause, the thread's flag cleared as after any.
     */
    static InterruptedException interruption(LockException raised) {
        Thread.interrupted();
        InterruptedException e = new InterruptedException(raised.getMessage());
        e.initCause(raised.getCause());
        return e;
    }
}
