package io.distlock.redis;

import io.distlock.LockStore;
import io.distlock.tck.AvailabilityRules;
import io.distlock.tck.StoreCapabilities;
import io.distlock.tck.StoreOutage;
import io.distlock.tck.TckHarness;
import io.distlock.tck.fixture.FreePorts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The kit's availability rules (§14) against a {@code redis-server} this test starts on a free port, so they can
 * stop and restart it (the rest of the kit runs against the shared server in {@link RedisTckTest}).
 */
class RedisOutageTckTest extends TckHarness implements AvailabilityRules {

    private static RedisServer server;

    @BeforeAll
    static void startServer() {
        server = RedisServer.start();
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Override
    protected StoreCapabilities capabilities() {
        return StoreCapabilities.timeBound();
    }

    @Override
    protected LockStore newClient() {
        return LockStore.open(server.uri("timeout=1s"));
    }

    @Override
    protected String storeUri() {
        return server.uri("");
    }

    @Override
    protected String unreachableStoreUri() {
        return "redis://127.0.0.1:" + FreePorts.next() + "?timeout=1s";
    }

    @Override
    protected StoreOutage outage() {
        return new StoreOutage() {
            @Override
            public void stop() {
                server.stop();
            }

            @Override
            public void start() {
                server.startAgain();
            }
        };
    }
}
