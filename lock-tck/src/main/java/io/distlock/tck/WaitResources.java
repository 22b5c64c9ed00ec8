package io.distlock.tck;

import io.distlock.LockStore;

/**
 * Counts what one client keeps for its waits (watchers, subscriptions, queue entries), supplied by a backend's kit
 * run so the kit can see that timed-out waits leave nothing behind. Any unit works: the kit only compares counts.
 */
@FunctionalInterface
public interface WaitResources {

    /** What {@code client} holds for waits now. */
    long count(LockStore client);
}
