package io.distlock.spi;

/**
 * Whether, when a store made a {@link Grant}, a client other than the one it went to was waiting for the lock, as
 * far as the store could tell from that very operation. The core hands a lock from thread to thread of one client
 * without freeing it; it bounds such a streak, and pauses before contending again, only so that waiters of other
 * clients get their turn. A store that knows nobody else waits ({@link #NO}) spares its client both.
 */
public enum OthersWaiting {

    /** Another client waited (or may have: a store that can only tell "maybe" answers this). */
    YES,

    /** Nobody else waited: the client may keep the lock among its threads. */
    NO,

    /** The store cannot tell; the core assumes others wait. */
    UNKNOWN;

    /** Whether the core must treat other clients as waiting: all but {@link #NO}. */
    public boolean mayWait() {
        return this != NO;
    }
}
