package io.distlock.micrometer;

import io.distlock.DistributedLock;
import io.distlock.Features;
import io.distlock.LockAdmin;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.LockViews;
import io.distlock.DistributedSemaphore;

/**
 * A {@link LockStore} whose locks and semaphores record into a {@link LockStoreMetrics}; everything else is the
 * wrapped store's.
 */
final class MeteredLockStore implements LockStore {

    private final LockStore store;
    private final LockStoreMetrics metrics;
    private final LockViews lockViews = new LockViews();

    MeteredLockStore(LockStore store, LockStoreMetrics metrics) {
        this.store = store;
        this.metrics = metrics;
    }

    @Override
    public DistributedLock lock(String name, LockOptions options) {
        return new MeteredLock(store.lock(name, options), metrics, lockViews);
    }

    @Override
    public DistributedSemaphore semaphore(String name, int permits, LockOptions options) {
        DistributedSemaphore semaphore = store.semaphore(name, permits, options);
        return new MeteredSemaphore(semaphore, metrics.permits(semaphore.name()));
    }

    /** The wrapped store's, so locks asked for by name get its defaults. */
    @Override
    public LockOptions defaultOptions() {
        return store.defaultOptions();
    }

    @Override
    public Features features() {
        return store.features();
    }

    @Override
    public LockAdmin admin() {
        return store.admin();
    }

    @Override
    public void close() {
        store.close();
    }

    @Override
    public String toString() {
        return store.toString();
    }
}
