package io.distlock.chaos;

import io.distlock.tck.fixture.ZooKeeperServer;
import java.time.Duration;

/**
 * A single ZooKeeper server of the run's own (the kit's {@link ZooKeeperServer}: a standalone server in a JVM of its
 * own on a free port). Clients in other JVMs reach it by URI; a crash is a SIGKILL and a restart from its snapshot
 * and transaction log on the same port; a pause is a SIGSTOP; a restore puts back a copy of its data directory taken
 * a while before (an ensemble leader crash is {@link ZooKeeperEnsembleTarget}).
 */
final class ZooKeeperTarget extends OwnServerTarget<ZooKeeperServer> {

    static final Duration SESSION = Duration.ofSeconds(4);

    ZooKeeperTarget() {
        super("zookeeper", start(), SESSION);
    }

    private static ZooKeeperServer start() {
        try {
            return ZooKeeperServer.start();
        } catch (RuntimeException e) {
            throw new IllegalStateException("could not start a ZooKeeper server", e);
        }
    }

    @Override
    public boolean restorable() {
        return true;
    }

    @Override
    public void backUp() {
        server.backUpData();
    }

    @Override
    public void restoreOlderCopy() {
        server.restoreDataCopy();
    }

    @Override
    public String uri(int clientPort) {
        return "zookeeper://127.0.0.1:" + clientPort + "?sessionTimeout=" + SESSION.toMillis() + "ms"
                + "&connectionTimeout=2s";
    }
}
