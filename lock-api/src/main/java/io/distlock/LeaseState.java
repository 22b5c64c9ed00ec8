package io.distlock;

/** The life of a {@link Lease}. */
public enum LeaseState {
    /** Held, and renewed (or its session alive) as far as the client knows. */
    HELD,
    /** The connection to the store is interrupted; the lease may or may not still be held. May return to HELD. */
    UNCERTAIN,
    /** Released by its holder. */
    RELEASED,
    /** Lost while held: expired, session ended, removed behind its back, or its store closed. Final. */
    LOST
}
