package io.distlock.tck.check;

import java.util.concurrent.locks.LockSupport;

/**
 * A counter whose increment is deliberately not atomic: read, pause, write. Two holders inside the lock at once
 * lose an update, which is how the kit sees a broken lock from the outside, as the design brief's double-click does.
 */
public final class SharedCounter {

    private volatile long value;

    /** Reads, waits {@code pauseNanos} (widening any race), writes the value plus one. */
    public void slowIncrement(long pauseNanos) {
        long read = value;
        if (pauseNanos > 0) {
            LockSupport.parkNanos(pauseNanos);
        }
        value = read + 1;
    }

    /** The current value. */
    public long value() {
        return value;
    }
}
