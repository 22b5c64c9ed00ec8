package io.distlock.zookeeper;

import io.distlock.tck.NameLeftovers;
import io.distlock.tck.StoreOutage;
import io.distlock.tck.fixture.FreePorts;
import java.time.Duration;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The whole compatibility kit against one real ZooKeeper server owned by this class (Curator's TestingServer), with
 * a 4 s session timeout so the session rules finish quickly. Separate-JVM clients join through {@link #storeUri()};
 * the outage rule stops and restarts this server.
 */
class ZooKeeperTckTest extends ZooKeeperTckBase {

    /** How often this server deletes emptied CONTAINER nodes (a default server: every minute). */
    private static final Duration CONTAINER_CHECK = Duration.ofMillis(250);
    private static final String CHROOT = "tck";

    private static AutoCloseable containerCheck;
    private static TestingServer server;
    private static CuratorFramework raw;

    @BeforeAll
    static void startServer() throws Exception {
        // kept while the class runs: the outage rule restarts the server, which reads the interval again
        containerCheck = TestServers.containerCheck(CONTAINER_CHECK);
        server = TestServers.server();
        raw = TestServers.rawClient(server.getConnectString(), CHROOT);
    }

    @AfterAll
    static void stopServer() throws Exception {
        raw.close();
        server.close();
        containerCheck.close();
    }

    /** Nodes of names used once under this kit's chroot (§26). */
    @Override
    protected NameLeftovers nameLeftovers() {
        return new ZooKeeperNameLeftovers(raw, CONTAINER_CHECK);
    }

    @Override
    protected String storeUri() {
        return TestServers.uri(server.getConnectString(), CHROOT, SESSION, CONNECTION);
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
        return List.of(storeUri()
                .replaceFirst("//", "//app:" + java.util.regex.Matcher.quoteReplacement(secret) + "@"));
    }
}
