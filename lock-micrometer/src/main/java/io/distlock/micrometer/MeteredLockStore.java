package io.distlock.micrometer;

import io.distlock.DistributedLock;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.Semaphore;
import io.distlock.core.ViewLeases;
import io.distlock.spi.LockAdmin;

/**
 * A {@link LockStore} whose locks and semaphores record into a {@link LockStoreMetrics}; everything else is the
 * wrapped store's.
 */
final class MeteredLockStore implements LockStore {

    private final LockStore store;
    private final LockStoreMetrics metrics;
    private final ViewLeases viewLeases = new ViewLeases();

    MeteredLockStore(LockStore store, LockStoreMetrics metrics) {
        this.store = store;
        this.metrics = metrics;
    }

    @Override
    public DistributedLock lock(String name) {
        // the wrapped store's own defaults, which may not be LockOptions.defaults()
        return new MeteredLock(store.lock(name), metrics, viewLeases);
    }

    @Override
    public DistributedLock lock(String name, LockOptions options) {
        return new MeteredLock(store.lock(name, options), metrics, viewLeases);
    }

    /** The wrapped store's semaphore, with its defaults, its permits metered. */
    @Override
    public Semaphore semaphore(String name, int permits) {
        Semaphore semaphore = store.semaphore(name, permits);
        return new MeteredSemaphore(semaphore, metrics.permits(semaphore.name()));
    }

    @Override
    public Semaphore semaphore(String name, int permits, LockOptions options) {
        Semaphore semaphore = store.semaphore(name, permits, options);
        return new MeteredSemaphore(semaphore, metrics.permits(semaphore.name()));
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
