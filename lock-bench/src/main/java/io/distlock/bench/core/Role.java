package io.distlock.bench.core;

/**
 * What a contender stands for in the comparison: distlock, the store's raw limit, or one of the other libraries.
 * Targets and ratios find their contenders by role, so renaming a contender in the report changes no verdict.
 */
public enum Role {
    /** distlock, opened through {@code LockStore.open(uri)}. */
    DISTLOCK,
    /** The raw commands a lock needs, sent by hand: the physical limit of the store. */
    RAW,
    /** Redisson's {@code RLock}. */
    REDISSON,
    /** Redisson's {@code RFencedLock}. */
    REDISSON_FENCED,
    /** Curator's {@code InterProcessMutex}. */
    CURATOR,
    /** Spring Integration's {@code JdbcLockRegistry}. */
    SPRING_INTEGRATION,
    /** ShedLock's JDBC provider. */
    SHEDLOCK,
    /** Redisson's {@code RPermitExpirableSemaphore} (permits with leases). */
    REDISSON_SEMAPHORE,
    /** Curator's {@code InterProcessSemaphoreV2}. */
    CURATOR_SEMAPHORE;

    /** Whether this is another library (not distlock, not a raw limit). */
    public boolean isLibrary() {
        return this != DISTLOCK && this != RAW;
    }
}
