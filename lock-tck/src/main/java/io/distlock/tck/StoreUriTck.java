package io.distlock.tck;

import io.distlock.LockStore;
import java.util.Objects;

/**
 * The whole kit against one store URI: every client is a fresh {@link LockStore#open(String)} of it, and other JVMs
 * open the same URI when the capabilities allow. A backend's test passes the URI (and capabilities, if not the
 * defaults) to the constructor and adds only what differs (an unreachable URI, an outage).
 */
public abstract class StoreUriTck extends LockStoreTck {

    private final String uri;
    private final StoreCapabilities capabilities;

    /** The kit against {@code uri}, with {@link StoreCapabilities#of(String)}. */
    protected StoreUriTck(String uri) {
        this(uri, StoreCapabilities.of(uri));
    }

    /** The kit against {@code uri}, a store with {@code capabilities}. */
    protected StoreUriTck(String uri, StoreCapabilities capabilities) {
        this.uri = Objects.requireNonNull(uri, "uri");
        this.capabilities = Objects.requireNonNull(capabilities, "capabilities");
    }

    @Override
    protected LockStore newClient() {
        return LockStore.open(uri);
    }

    @Override
    protected StoreCapabilities capabilities() {
        return capabilities;
    }

    @Override
    protected String storeUri() {
        return capabilities.separateJvmClients() ? uri : null;
    }
}
