package io.distlock.jdbc;

import io.distlock.LockStore;
import io.distlock.tck.AvailabilityRules;
import io.distlock.tck.StoreCapabilities;
import io.distlock.tck.StoreOutage;
import io.distlock.tck.TckHarness;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * The kit's availability rules (§14) against a database that stops answering instead of closing its sockets: the
 * clients reach it through a {@link FrozenPath}, and the outage freezes it. Only the clients' own timeouts can bound
 * an operation then, so each subclass's {@link #operationTimeout()} follows from the timeouts its URI sets. §14.1's
 * "store with no server behind it" is a second path, frozen from the start: a server that accepts and never answers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class PausedServerTckBase extends TckHarness implements AvailabilityRules {

    private FrozenPath path;
    private FrozenPath blackHole;
    private String uri;
    private String unreachable;

    /** Starts the server if the test owns one; returns the store URI that reaches it directly, options included. */
    protected abstract String openDirectUri() throws Exception;

    /** Stops the server if the test owns one. */
    protected void closeServer() {
    }

    @BeforeAll
    final void openPaths() throws Exception {
        String direct = openDirectUri();
        path = new FrozenPath(direct);
        uri = path.through(direct);
        blackHole = new FrozenPath(direct);
        blackHole.freeze();
        unreachable = blackHole.through(direct);
    }

    @AfterAll
    final void closePaths() {
        blackHole.close();
        path.close();
        closeServer();
    }

    /** The store URI through the path the outage freezes. */
    protected final String uri() {
        return uri;
    }

    @Override
    protected LockStore newClient() {
        return LockStore.open(uri);
    }

    @Override
    protected StoreCapabilities capabilities() {
        return StoreCapabilities.timeBound();
    }

    @Override
    protected String unreachableStoreUri() {
        return unreachable;
    }

    @Override
    protected StoreOutage outage() {
        return new StoreOutage() {
            @Override
            public void stop() {
                path.freeze();
            }

            @Override
            public void start() {
                path.unfreeze();
            }
        };
    }
}
