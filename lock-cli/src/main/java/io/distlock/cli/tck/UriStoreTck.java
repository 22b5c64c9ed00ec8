package io.distlock.cli.tck;

import io.distlock.LockStore;
import io.distlock.tck.LockStoreTck;
import io.distlock.tck.StoreCapabilities;
import io.distlock.tck.StoreOutage;

/**
 * The compatibility kit bound to a store URI given on the command line: every client is a fresh
 * {@link LockStore#open(String)} of that URI, so the kit checks exactly what an application would get.
 */
public final class UriStoreTck extends LockStoreTck {

    @Override
    protected LockStore newClient() {
        return LockStore.open(TckTarget.current().uri());
    }

    @Override
    protected StoreCapabilities capabilities() {
        return TckTarget.current().capabilities();
    }

    @Override
    protected String storeUri() {
        return capabilities().separateJvmClients() ? TckTarget.current().uri() : null;
    }

    @Override
    protected StoreOutage outage() {
        return TckTarget.current().outage();
    }

    @Override
    protected String unreachableStoreUri() {
        return TckTarget.current().unreachableUri();
    }
}
