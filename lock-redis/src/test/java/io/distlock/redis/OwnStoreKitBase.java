package io.distlock.redis;

import io.distlock.LockStore;
import io.distlock.tck.TckHarness;
import io.distlock.tck.fixture.BackendStores;
import io.distlock.tck.fixture.ClassFixture;

/**
 * Kit rules on a store that each test class owns (a server, a Cluster or a Sentinel set-up in a {@link ClassFixture}
 * of its own, since this module runs test classes concurrently): clients open {@link #uri} with a 2 s timeout, other
 * JVMs the bare URI. Subclasses pick the rule groups.
 */
abstract class OwnStoreKitBase extends TckHarness {

    /** The class's store URI with {@code query} appended (such as {@code timeout=2s}). */
    abstract String uri(String query);

    @Override
    protected LockStore newClient() {
        return BackendStores.open(uri("timeout=2s"));
    }

    @Override
    protected String storeUri() {
        return uri("");
    }
}
