package io.distlock.spi;

import io.distlock.LockStore;
import io.distlock.StoreOptions;
import io.distlock.core.BackendLockStore;

/**
 * Puts a {@link LockBackend} behind the shared core, as {@link LockStore#open(String)} does with the backend a
 * {@link LockStoreProvider} opens: for a backend made without a provider and a URI (a test stub, an embedded store).
 */
public final class Stores {

    private Stores() {
    }

    /**
     * The store over {@code backend}, with {@link StoreOptions#defaults()}; closing it closes the backend.
     *
     * @param description how to show the store in messages, never with a password
     * @throws NullPointerException if an argument is null
     */
    public static LockStore over(LockBackend backend, String description) {
        return over(backend, description, StoreOptions.defaults());
    }

    /**
     * The store over {@code backend}, opened with {@code options}; closing it closes the backend.
     *
     * @param description how to show the store in messages, never with a password
     * @throws NullPointerException if an argument is null
     */
    public static LockStore over(LockBackend backend, String description, StoreOptions options) {
        return new BackendLockStore(backend, description, options);
    }
}
