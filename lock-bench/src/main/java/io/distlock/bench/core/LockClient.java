package io.distlock.bench.core;

/**
 * One independent client of a store (its own connections), as a service process would have. Thread-safe: the
 * scenarios share one client between several threads, the way services share one client per process.
 */
public interface LockClient extends AutoCloseable {

    /** Waits as long as it takes for the lock {@code name} and returns it held. */
    Held acquire(String name) throws Exception;

    @Override
    void close() throws Exception;
}
