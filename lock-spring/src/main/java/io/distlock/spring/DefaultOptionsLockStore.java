package io.distlock.spring;

import io.distlock.DistributedLock;
import io.distlock.LeaseModel;
import io.distlock.LockAdmin;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.Semaphore;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link LockStore} whose {@link #lock(String)} uses the given options instead of {@link LockOptions#defaults()}:
 * how {@code distlock.lease-time} and {@code distlock.auto-renew} reach code that calls {@code store.lock(name)}.
 * Locks (and semaphores) asked for with explicit options keep them. Closing it closes the wrapped store.
 */
public final class DefaultOptionsLockStore implements LockStore {

    private final LockStore store;
    private final LockOptions defaults;

    /**
     * {@code store} with {@code defaults} for locks asked for by name only.
     *
     * @throws NullPointerException if an argument is null
     */
    public DefaultOptionsLockStore(LockStore store, LockOptions defaults) {
        this.store = Objects.requireNonNull(store, "store must not be null");
        this.defaults = Objects.requireNonNull(defaults, "defaults must not be null");
    }

    /** The options locks asked for by name only get. */
    public LockOptions defaults() {
        return defaults;
    }

    @Override
    public DistributedLock lock(String name) {
        return store.lock(name, defaults);
    }

    @Override
    public DistributedLock lock(String name, LockOptions options) {
        return store.lock(name, options);
    }

    @Override
    public Semaphore semaphore(String name, int permits) {
        return store.semaphore(name, permits, defaults);
    }

    @Override
    public Semaphore semaphore(String name, int permits, LockOptions options) {
        return store.semaphore(name, permits, options);
    }

    @Override
    public LeaseModel leaseModel() {
        return store.leaseModel();
    }

    @Override
    public Optional<Duration> sessionTimeout() {
        return store.sessionTimeout();
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
