package io.distlock.zookeeper;

import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;

/**
 * A test server one class owns (register it with {@link io.distlock.tck.fixture.ClassFixture}), a plain Curator
 * client rooted at the class's chroot for looking at nodes behind the stores' backs, and stores on that chroot.
 */
final class ChrootedServer implements AutoCloseable {

    private final TestingServer server;
    private final String chroot;
    private final CuratorFramework raw;

    private ChrootedServer(TestingServer server, String chroot) throws InterruptedException {
        this.server = server;
        this.chroot = chroot;
        this.raw = TestServers.rawClient(server.getConnectString(), chroot);
    }

    /** A started server and a client under {@code chroot}. */
    static ChrootedServer start(String chroot) throws Exception {
        return new ChrootedServer(TestServers.server(), chroot);
    }

    /**
     * As {@link #start(String)}, on a server that deletes emptied CONTAINER nodes every {@code containerCheck}
     * ({@link TestServers#containerCheck}).
     */
    static ChrootedServer start(String chroot, Duration containerCheck) throws Exception {
        try (AutoCloseable check = TestServers.containerCheck(containerCheck)) {
            return start(chroot);
        }
    }

    /** The server. */
    TestingServer server() {
        return server;
    }

    /** The plain client, rooted at the chroot. */
    CuratorFramework raw() {
        return raw;
    }

    /** A new store on the chroot: 6 s session, 5 s connection timeout. */
    LockStore open() {
        return BackendStores.open(TestServers.uri(server.getConnectString(), chroot, Duration.ofSeconds(6),
                Duration.ofSeconds(5)));
    }

    @Override
    public void close() throws Exception {
        try {
            raw.close();
        } finally {
            server.close();
        }
    }
}
