package io.distlock;

/**
 * Work done while holding a lock, given the lease so it can pass {@link Lease#fencingToken()} to the resources it
 * writes to. Used by {@link DistributedLock#tryRun(LeaseTask)}.
 *
 * @param <T> what the task returns
 */
@FunctionalInterface
public interface LeaseTask<T> {

    /** Runs the task under {@code lease}; the caller releases the lease afterwards, whatever happens. */
    T run(Lease lease) throws Exception;
}
