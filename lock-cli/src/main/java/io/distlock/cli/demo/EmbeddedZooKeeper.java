package io.distlock.cli.demo;

import io.distlock.StoreUnavailableException;
import io.distlock.tck.StoreOutage;
import io.distlock.tck.fixture.FreePorts;
import java.io.IOException;
import java.time.Duration;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;

/**
 * A real ZooKeeper server inside this JVM (Curator's {@link TestingServer}) on a free loopback port, so
 * {@code distlock demo} runs with nothing installed. Its tick time is short so that a short session timeout (used by
 * the fencing scenario) is allowed: ZooKeeper accepts session timeouts from 2 to 20 ticks.
 */
public final class EmbeddedZooKeeper implements AutoCloseable {

    /**
     * The session timeout the demo's URI asks for: short, so a frozen holder loses its lock quickly, yet long enough
     * that the healthy services keep their sessions on a loaded machine.
     */
    public static final Duration SESSION_TIMEOUT = Duration.ofSeconds(4);
    private static final int TICK_MILLIS = 500;

    private final TestingServer server;

    private EmbeddedZooKeeper(TestingServer server) {
        this.server = server;
    }

    /** Starts a server on a free port of 127.0.0.1. */
    public static EmbeddedZooKeeper start() {
        int port = FreePorts.next();
        InstanceSpec spec = new InstanceSpec(null, port, -1, -1, true, -1, TICK_MILLIS, -1);
        try {
            return new EmbeddedZooKeeper(new TestingServer(spec, true));
        } catch (Exception e) {
            throw new StoreUnavailableException("could not start the embedded ZooKeeper server on port " + port, e);
        }
    }

    /** The port it listens on. */
    public int port() {
        return server.getPort();
    }

    /** The store URI the demo's services open to reach it, with the demo's short session timeout. */
    public String storeUri() {
        return storeUri(SESSION_TIMEOUT);
    }

    /** A store URI to reach it with the given session timeout (and a connection timeout as long). */
    public String storeUri(Duration sessionTimeout) {
        return "zookeeper://127.0.0.1:" + port() + "?sessionTimeout=" + sessionTimeout.toMillis() + "ms"
                + "&connectionTimeout=" + sessionTimeout.toMillis() + "ms";
    }

    /** Stopping and restarting this server on the same port, for the kit's outage rule. */
    public StoreOutage outage() {
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
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            System.err.println("distlock: stopping the embedded ZooKeeper server failed: " + e);
        }
    }
}
