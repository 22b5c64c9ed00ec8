package io.distlock.redis;

import io.distlock.LockStore;
import io.distlock.tck.AvailabilityRules;
import io.distlock.tck.StoreOutage;
import io.distlock.tck.fixture.ClassFixture;
import io.distlock.tck.fixture.FreePorts;
import java.time.Duration;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The kit's availability rules (§14) against a {@code redis-server} this test starts on a free port, so they can
 * stop and restart it (the rest of the kit runs against the shared server in {@link RedisTckTest}).
 */
class RedisOutageTckTest extends OwnStoreKitBase implements AvailabilityRules {

    @RegisterExtension
    static final ClassFixture<RedisServer> server = new ClassFixture<>(RedisServer::start);

    @Override
    String uri(String query) {
        return server.get().uri(query);
    }

    @Override
    protected LockStore newClient() {
        return LockStore.open(uri("timeout=1s"));
    }

    /** One operation of a client at {@code timeout=1s}: a connect and a read, each bounded by that timeout. */
    @Override
    protected Duration operationTimeout() {
        return Duration.ofSeconds(2);
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
                server.get().stop();
            }

            @Override
            public void start() {
                server.get().startAgain();
            }
        };
    }
}
