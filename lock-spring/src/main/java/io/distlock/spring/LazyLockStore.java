package io.distlock.spring;

import io.distlock.DistributedLock;
import io.distlock.Features;
import io.distlock.LockAdmin;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.DistributedSemaphore;
import io.distlock.StoreUnavailableException;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A store opened on first use instead of at start-up ({@code distlock.lazy-start=true}): an application whose store
 * is down when it starts still starts, every call made while the store cannot be opened throws
 * {@link StoreUnavailableException} (so the health indicator reports DOWN), and the first call after it is reachable
 * opens it. Once open, it is that store.
 */
final class LazyLockStore implements LockStore {

    private final Supplier<LockStore> opener;
    private final String description;
    private final LockOptions defaultOptions;
    private LockStore store;
    private boolean closed;

    /** A store opened by {@code opener} on first use, whose default options, known before, are {@code defaults}. */
    LazyLockStore(Supplier<LockStore> opener, String description, LockOptions defaults) {
        this.opener = Objects.requireNonNull(opener, "opener must not be null");
        this.description = Objects.requireNonNull(description, "description must not be null");
        this.defaultOptions = Objects.requireNonNull(defaults, "defaults must not be null");
    }

    /** The open store, opening it now if it is not yet. */
    private synchronized LockStore store() {
        if (closed) {
            throw new IllegalStateException("store " + description + " is closed");
        }
        if (store == null) {
            store = opener.get();
        }
        return store;
    }

    /** Opens the store now if it can; a store still unreachable is left for a later call. */
    void tryOpen() {
        try {
            store();
        } catch (StoreUnavailableException e) {
            // the first use opens it
        }
    }

    @Override
    public DistributedLock lock(String name, LockOptions options) {
        return store().lock(name, options);
    }

    @Override
    public DistributedSemaphore semaphore(String name, int permits, LockOptions options) {
        return store().semaphore(name, permits, options);
    }

    @Override
    public LockOptions defaultOptions() {
        return defaultOptions;
    }

    @Override
    public Features features() {
        return store().features();
    }

    @Override
    public LockAdmin admin() {
        return store().admin();
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (store != null) {
            store.close();
        }
    }

    @Override
    public synchronized String toString() {
        return store != null ? store.toString() : description + " (not open yet)";
    }
}
