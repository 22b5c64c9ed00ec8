package io.distlock.spi;

/**
 * The outcome of one atomic acquire attempt in a {@link PollingLockBackend}: either a grant, or the information
 * that someone else holds the lock and, if the store said, for how long at most.
 *
 * @param grant the grant, or null if the lock is held elsewhere
 * @param holderTtlNanos the holder's remaining lease in nanoseconds when known, else -1
 */
public record Attempt(Grant grant, long holderTtlNanos) {

    /** The lock was granted. */
    public static Attempt granted(Grant grant) {
        return new Attempt(grant, -1);
    }

    /** Someone else holds the lock for at most {@code holderTtlNanos} (or -1 when unknown). */
    public static Attempt held(long holderTtlNanos) {
        return new Attempt(null, holderTtlNanos);
    }

    /** Whether the lock was granted. */
    public boolean isGranted() {
        return grant != null;
    }
}
