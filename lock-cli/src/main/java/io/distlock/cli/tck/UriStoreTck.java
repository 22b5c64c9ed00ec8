package io.distlock.cli.tck;

import io.distlock.LockStore;
import io.distlock.tck.StoreOutage;
import io.distlock.tck.StoreUriTck;
import java.time.Duration;

/**
 * The compatibility kit bound to a store URI given on the command line: every client is a fresh
 * {@link LockStore#open(String)} of that URI, so the kit checks exactly what an application would get. JUnit
 * instantiates it during a {@code distlock tck} run, whose {@link TckTarget} says which store and what it can do.
 */
public final class UriStoreTck extends StoreUriTck {

    /** The kit against the store of the current {@code tck} run. */
    public UriStoreTck() {
        super(TckTarget.current().uri(), TckTarget.current().capabilities());
    }

    @Override
    protected StoreOutage outage() {
        return TckTarget.current().outage();
    }

    @Override
    protected Duration operationTimeout() {
        Duration known = TckTarget.current().operationTimeout();
        return known != null ? known : super.operationTimeout();
    }

    @Override
    protected String unreachableStoreUri() {
        return TckTarget.current().unreachableUri();
    }
}
