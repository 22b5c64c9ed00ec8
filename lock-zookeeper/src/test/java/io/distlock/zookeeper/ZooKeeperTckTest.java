package io.distlock.zookeeper;

import io.distlock.LockStore;
import io.distlock.tck.LockStoreTck;
import io.distlock.tck.StoreCapabilities;
import io.distlock.tck.WaitResources;
import io.distlock.tck.StoreOutage;
import io.distlock.tck.fixture.FreePorts;
import java.time.Duration;
import java.util.List;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The whole compatibility kit against one real ZooKeeper server owned by this class (Curator's TestingServer), with
 * a 4 s session timeout so the session rules finish quickly. Separate-JVM clients join through {@link #storeUri()};
 * the outage rule stops and restarts this server.
 */
class ZooKeeperTckTest extends LockStoreTck {

    static final Duration SESSION = Duration.ofSeconds(4);
    static final Duration CONNECTION = Duration.ofSeconds(4);

    private static TestingServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = TestServers.server();
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    @Override
    protected LockStore newClient() {
        return LockStore.open(storeUri());
    }

    @Override
    protected StoreCapabilities capabilities() {
        return StoreCapabilities.sessionBound(SESSION);
    }

    /** A client's operations give up after the URI's connection timeout (see {@link WaitBudget}). */
    @Override
    protected Duration operationTimeout() {
        return CONNECTION;
    }

    /** The watchers the client keeps for its waits: a timed-out wait must take its watch with it. */
    @Override
    protected WaitResources waitResources() {
        return TestServers::clientWatchers;
    }

    @Override
    protected String storeUri() {
        return TestServers.uri(server.getConnectString(), "tck", SESSION, CONNECTION);
    }

    @Override
    protected StoreOutage outage() {
        return new StoreOutage() {
            @Override
            public void stop() throws Exception {
                server.stop();
            }

            @Override
            public void start() throws Exception {
                server.restart();
            }
        };
    }

    @Override
    protected String unreachableStoreUri() {
        return "zookeeper://127.0.0.1:" + FreePorts.next() + "?connectionTimeout=3s";
    }

    /** The digest password of the user info (ZooKeeper accepts any digest credentials). */
    @Override
    public List<String> urisWithSecret(String secret) {
        return List.of(storeUri().replaceFirst("//", "//app:" + java.util.regex.Matcher.quoteReplacement(secret) + "@"));
    }
}
