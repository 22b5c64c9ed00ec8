package io.distlock.bench.core;

/** What a contender stands for in the comparison: our library, another library, or the store's raw limit. */
public enum Role {
    /** distlock, opened through {@code LockStore.open(uri)}. */
    DISTLOCK,
    /** A library users would pick instead (Redisson, Curator, Spring Integration). */
    LIBRARY,
    /** The raw commands a lock needs, sent by hand: the physical limit of the store. */
    RAW
}
