package io.distlock.jdbc;

import io.distlock.LockStore;
import io.distlock.tck.AvailabilityRules;
import io.distlock.tck.StoreCapabilities;
import io.distlock.tck.StoreOutage;
import io.distlock.tck.TckHarness;
import io.distlock.tck.fixture.FreePorts;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.netcrusher.core.reactor.NioReactor;
import org.netcrusher.tcp.TcpCrusher;
import org.netcrusher.tcp.TcpCrusherBuilder;

/**
 * The kit's availability rules (§14) against an H2 server that stops answering instead of closing its sockets: the
 * clients reach it through a TCP proxy, and the outage freezes the proxy (connections stay open, new ones are
 * accepted by the kernel and then hear nothing), as a paused or cut-off server behaves. Only the client's own read
 * timeout can bound an operation then ({@link H2TckTest} stops the server, which resets every connection).
 */
class H2PausedServerTckTest extends TckHarness implements AvailabilityRules {

    private static H2Server server;
    private static NioReactor reactor;
    private static TcpCrusher proxy;
    private static String uri;

    @BeforeAll
    static void startServerBehindProxy() throws Exception {
        String table = Databases.uniqueTable("tck_h2_paused");
        server = new H2Server(table).start();
        int port = FreePorts.next();
        reactor = new NioReactor();
        proxy = TcpCrusherBuilder.builder().withReactor(reactor).withBindAddress("127.0.0.1", port)
                .withConnectAddress("127.0.0.1", server.port()).buildAndOpen();
        uri = server.url().replace("//127.0.0.1:" + server.port() + "/", "//127.0.0.1:" + port + "/")
                + "?distlock.table=" + table + "&" + H2TckTest.TIMEOUTS;
    }

    @AfterAll
    static void stopServerAndProxy() {
        proxy.close();
        reactor.close();
        server.close();
    }

    @Override
    protected LockStore newClient() {
        return LockStore.open(uri);
    }

    @Override
    protected StoreCapabilities capabilities() {
        return StoreCapabilities.timeBound();
    }

    /** The same timeouts as {@link H2TckTest}'s, so the same bound. */
    @Override
    protected Duration operationTimeout() {
        return H2TckTest.OPERATION_TIMEOUT;
    }

    @Override
    protected StoreOutage outage() {
        return new StoreOutage() {
            @Override
            public void stop() {
                proxy.freeze();
            }

            @Override
            public void start() {
                proxy.unfreeze();
            }
        };
    }
}
