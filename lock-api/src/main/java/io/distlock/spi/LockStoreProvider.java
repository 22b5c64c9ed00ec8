package io.distlock.spi;

import java.util.Set;

/**
 * A store implementation, found through {@link java.util.ServiceLoader}: list the class in
 * {@code META-INF/services/io.distlock.spi.LockStoreProvider}. {@link io.distlock.LockStore#open(String)} hands a URI
 * to the provider that claims its scheme and puts the backend it opens behind the shared core, so a provider only
 * parses its URI and connects.
 */
public interface LockStoreProvider {

    /** The URI schemes this provider opens, lower case, for example {@code redis} and {@code rediss}. */
    Set<String> schemes();

    /**
     * Opens the store operations for {@code uri}, whose scheme is one of {@link #schemes()}.
     *
     * @throws IllegalArgumentException if the URI is malformed for this store
     * @throws io.distlock.StoreUnavailableException if the store cannot be reached
     */
    LockBackend open(StoreUri uri);
}
