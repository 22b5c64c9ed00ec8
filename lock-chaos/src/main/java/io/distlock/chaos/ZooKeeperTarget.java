package io.distlock.chaos;

import io.distlock.tck.fixture.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import org.apache.curator.test.TestingServer;

/**
 * A single in-process ZooKeeper server ({@link TestingServer}) on a free port. Clients in other JVMs reach it by
 * URI; a crash is a stop and restart on the same port and data directory. It lives in this JVM, so it cannot be
 * paused with a signal: server pause does not apply (an ensemble leader crash is {@link ZooKeeperEnsembleTarget}).
 */
final class ZooKeeperTarget implements StoreTarget {

    static final Duration SESSION = Duration.ofSeconds(4);

    private final TestingServer server;

    ZooKeeperTarget() {
        try {
            server = new TestingServer(FreePorts.next(), true);
        } catch (Exception e) {
            throw new IllegalStateException("could not start an in-process ZooKeeper", e);
        }
    }

    @Override
    public String store() {
        return "zookeeper";
    }

    @Override
    public String uri(int clientPort) {
        return "zookeeper://127.0.0.1:" + clientPort + "?sessionTimeout=" + SESSION.toMillis() + "ms"
                + "&connectionTimeout=2s";
    }

    @Override
    public int port() {
        return server.getPort();
    }

    @Override
    public Duration holdBound() {
        return SESSION;
    }

    @Override
    public void crashAndRestart(Duration down) throws Exception {
        server.stop();
        Thread.sleep(down.toMillis()); // the outage itself
        server.restart();
    }

    @Override
    public boolean canPause() {
        return false;
    }

    @Override
    public void pause() {
        throw new UnsupportedOperationException("an in-process ZooKeeper cannot be paused with SIGSTOP");
    }

    @Override
    public void resume() {
        throw new UnsupportedOperationException("an in-process ZooKeeper cannot be paused with SIGSTOP");
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
