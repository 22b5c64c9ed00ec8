package io.distlock.tck;

import java.time.Duration;

/**
 * A count of what a store keeps for names nobody uses any more, for the rules of §26 (a name used once leaves
 * nothing after its lease plus a grace): the keys, rows or nodes of lock and semaphore names, and a hand that moves a
 * lock's fencing counter ahead of the store's clock, as many grants within a short time would. Supplied by a
 * backend's kit subclass that knows where its store keeps them.
 */
public interface NameLeftovers {

    /**
     * How long past the end of a name's last lease its state may stay: the store's grace plus the interval of any
     * clean-up it runs in the background.
     */
    Duration grace();

    /** How many keys, rows or nodes the store keeps for lock and semaphore names starting with {@code namePrefix}. */
    long count(String namePrefix) throws Exception;

    /**
     * Sets lock {@code name}'s fencing counter (free, no holder) to the store's clock in microseconds plus
     * {@code ahead}, as an operator's write would, and answers the value written; the next grant counts on from it.
     */
    long pushLockCounterAhead(String name, Duration ahead) throws Exception;
}
