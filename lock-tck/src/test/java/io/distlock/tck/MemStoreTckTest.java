package io.distlock.tck;

import io.distlock.LockStore;
import java.util.UUID;

/** The kit checks itself against the in-memory store: every rule passes except those needing another JVM. */
class MemStoreTckTest extends LockStoreTck {

    private final String uri = "mem:tck-" + UUID.randomUUID();

    @Override
    protected LockStore newClient() {
        return LockStore.open(uri);
    }

    @Override
    protected StoreCapabilities capabilities() {
        return StoreCapabilities.defaults().withSeparateJvmClients(false);
    }
}
