package io.distlock.bench.core;

/**
 * What a contender stands for in the comparison: distlock, the store's raw limit (or Redis's raw wake-up floor), or
 * one of the other libraries.
 * Targets and ratios find their contenders by role, so renaming a contender in the report changes no verdict.
 */
public enum Role {
    /** distlock, opened through {@code LockStore.open(uri)}. */
    DISTLOCK,
    /** The raw commands a lock needs, sent by hand: the physical limit of the store. */
    RAW,
    /**
     * The minimal pub/sub wake-up a waiting Redis lock needs, sent by hand: {@code SET NX PX}, on refusal a wait for
     * a release message on one subscriber thread per client, then another try; release is a compare-and-delete that
     * publishes. The floor of hand-off latency on this host, so it runs only the hand-off scenario.
     */
    RAW_WAKE_UP,
    /** Redisson's {@code RLock}. */
    REDISSON,
    /** Redisson's {@code RFencedLock}. */
    REDISSON_FENCED,
    /** Curator's {@code InterProcessMutex}. */
    CURATOR,
    /**
     * Curator's {@code InterProcessMutex} followed by a fencing token from Curator's {@code DistributedAtomicLong} on
     * a counter node of the lock: the fenced counterpart of {@link #CURATOR}, as {@link #REDISSON_FENCED} is of
     * {@link #REDISSON}.
     */
    CURATOR_FENCED,
    /** Spring Integration's {@code JdbcLockRegistry}. */
    SPRING_INTEGRATION,
    /** ShedLock's JDBC provider. */
    SHEDLOCK,
    /** Redisson's {@code RPermitExpirableSemaphore} (permits with leases). */
    REDISSON_SEMAPHORE,
    /** Curator's {@code InterProcessSemaphoreV2}. */
    CURATOR_SEMAPHORE;

    /** Whether this is another library (not distlock, not a raw limit or floor). */
    public boolean isLibrary() {
        return this != DISTLOCK && !isRaw();
    }

    /** Whether this is a hand-written minimum (the raw limit or the raw wake-up floor), never compared by ratio. */
    public boolean isRaw() {
        return this == RAW || this == RAW_WAKE_UP;
    }

    /** Whether this role runs only the hand-off scenario (the wake-up floor has no throughput to compare). */
    public boolean handoffOnly() {
        return this == RAW_WAKE_UP;
    }
}
