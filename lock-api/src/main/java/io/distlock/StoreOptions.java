package io.distlock;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How a store is opened with {@link LockStore#open(String, StoreOptions)}: the {@link LockOptions} its locks,
 * semaphores and leaderships get when asked for by name only, and the listeners told of its background work
 * (metrics). Immutable, each {@code with...} method returns a copy; {@link #defaults()} is what
 * {@link LockStore#open(String)} uses.
 *
 * <pre>{@code
 * LockStore store = LockStore.open("redis://localhost:6379", StoreOptions.defaults()
 *         .withLockOptions(LockOptions.defaults().withLeaseTime(Duration.ofSeconds(10)))
 *         .withListener(metrics.listener()));
 * }</pre>
 */
public final class StoreOptions {

    private static final StoreOptions DEFAULTS = new StoreOptions(LockOptions.defaults(), List.of());

    private final LockOptions lockOptions;
    private final List<LockStoreListener> listeners;

    private StoreOptions(LockOptions lockOptions, List<LockStoreListener> listeners) {
        this.lockOptions = lockOptions;
        this.listeners = listeners;
    }

    /** {@link LockOptions#defaults()} for locks asked for by name, no listener. */
    public static StoreOptions defaults() {
        return DEFAULTS;
    }

    /**
     * A copy whose locks, semaphores and leaderships asked for without options get {@code options}; those asked for
     * with explicit options keep them.
     *
     * @throws NullPointerException if {@code options} is null
     */
    public StoreOptions withLockOptions(LockOptions options) {
        return new StoreOptions(Objects.requireNonNull(options, "options must not be null"), listeners);
    }

    /**
     * A copy that also tells {@code listener} of the store's background work, after the listeners added before.
     *
     * @throws NullPointerException if {@code listener} is null
     */
    public StoreOptions withListener(LockStoreListener listener) {
        Objects.requireNonNull(listener, "listener must not be null");
        List<LockStoreListener> more = new ArrayList<>(listeners);
        more.add(listener);
        return new StoreOptions(lockOptions, List.copyOf(more));
    }

    /** The options of locks asked for by name only. */
    public LockOptions lockOptions() {
        return lockOptions;
    }

    /** The listeners, in the order added. */
    public List<LockStoreListener> listeners() {
        return listeners;
    }

    /** One listener telling every listener here in order ({@link LockStoreListener#NONE} if there is none). */
    public LockStoreListener listener() {
        if (listeners.isEmpty()) {
            return LockStoreListener.NONE;
        }
        if (listeners.size() == 1) {
            return listeners.get(0);
        }
        return new LockStoreListener() {
            @Override
            public void renewed(int leases, int lost, long nanos) {
                listeners.forEach(l -> l.renewed(leases, lost, nanos));
            }

            @Override
            public void renewalFailed(int leases, long nanos, RuntimeException cause) {
                listeners.forEach(l -> l.renewalFailed(leases, nanos, cause));
            }
        };
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StoreOptions other && lockOptions.equals(other.lockOptions)
                && listeners.equals(other.listeners);
    }

    @Override
    public int hashCode() {
        return Objects.hash(lockOptions, listeners);
    }

    @Override
    public String toString() {
        return "StoreOptions[lockOptions=" + lockOptions + ", listeners=" + listeners.size() + "]";
    }
}
