package io.distlock.redis;

import io.distlock.LockStore;
import io.distlock.tck.LockStoreTck;
import io.distlock.tck.StoreCapabilities;
import io.distlock.tck.StoreOutage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The compatibility kit against a {@code redis-server} this test starts on a free port, so the availability rules
 * can stop and restart it.
 */
class RedisOutageTckTest extends LockStoreTck {

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
    protected LockStore newClient() {
        return LockStore.open(server.uri("timeout=1s"));
    }

    @Override
    protected StoreCapabilities capabilities() {
        return StoreCapabilities.timeBound();
    }

    @Override
    protected String storeUri() {
        return server.uri("");
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
