package io.distlock;

/**
 * Work that returns nothing, done while holding a lock, given the lease so it can pass {@link Lease#fencingToken()}
 * to the resources it writes to. Used by {@link DistributedLock#runIfFree}, which answers whether it ran.
 */
@FunctionalInterface
public interface LeaseAction {

    /** Runs the action under {@code lease}; the caller releases the lease afterwards, whatever happens. */
    void run(Lease lease) throws Exception;
}
