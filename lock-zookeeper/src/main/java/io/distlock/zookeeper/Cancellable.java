package io.distlock.zookeeper;

/**
 * A caller's wait for a ZooKeeper answer that the store's close ends at once ({@link ZooKeeperBackend#close}): the
 * backend keeps every such wait in one set while it lasts and cancels what is left when it closes.
 */
interface Cancellable {

    /** Ends the wait now without an answer: the store is closing. */
    void cancel();
}
