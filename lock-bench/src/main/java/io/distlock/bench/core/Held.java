package io.distlock.bench.core;

/** A lock held by a contender's client; releasing it is the second half of an acquire/release pair. */
@FunctionalInterface
public interface Held {

    /** Releases the lock. */
    void release() throws Exception;
}
