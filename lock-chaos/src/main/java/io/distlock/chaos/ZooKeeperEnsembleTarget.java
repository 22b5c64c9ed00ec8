package io.distlock.chaos;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;

/**
 * A 3-node in-process ZooKeeper ensemble ({@link TestingCluster}). Its crashes kill one server and restart it: first
 * a follower, then the leader (found with the {@code srvr} four-letter word), since only the leader's loss forces
 * an election, during which no session can be served.
 */
final class ZooKeeperEnsembleTarget implements StoreTarget {

    private final TestingCluster cluster;
    private int crashes;
    private String lastCrashed = "";

    ZooKeeperEnsembleTarget() {
        cluster = new TestingCluster(3);
        try {
            cluster.start();
        } catch (Exception e) {
            throw new IllegalStateException("could not start a 3-node ZooKeeper ensemble", e);
        }
    }

    @Override
    public String store() {
        return "zookeeper (3-node ensemble)";
    }

    @Override
    public String uri(int ignoredPort) {
        return "zookeeper://" + cluster.getConnectString() + "?sessionTimeout="
                + ZooKeeperTarget.SESSION.toMillis() + "ms&connectionTimeout=2s";
    }

    @Override
    public int port() {
        return cluster.getInstances().iterator().next().getPort();
    }

    @Override
    public Duration holdBound() {
        return ZooKeeperTarget.SESSION;
    }

    /** Kills a follower on the first call and the leader on the second, restarting each after {@code down}. */
    @Override
    public void crashAndRestart(Duration down) throws Exception {
        boolean wantLeader = crashes++ % 2 == 1;
        InstanceSpec victim = pick(wantLeader);
        lastCrashed = (wantLeader ? "leader " : "follower ") + victim.getPort();
        cluster.killServer(victim);
        Thread.sleep(down.toMillis()); // the outage itself
        cluster.restartServer(victim);
    }

    @Override
    public String note() {
        return crashes == 0 ? "" : "crashed a follower, then the leader, in turn (last: " + lastCrashed + ")";
    }

    private InstanceSpec pick(boolean leader) {
        List<InstanceSpec> followers = new ArrayList<>();
        for (InstanceSpec spec : cluster.getInstances()) {
            String mode = mode(spec.getPort());
            if (mode.contains("leader") && leader) {
                return spec;
            }
            if (mode.contains("follower")) {
                followers.add(spec);
            }
        }
        if (!followers.isEmpty()) {
            return followers.get(0);
        }
        return cluster.getInstances().iterator().next();
    }

    private static String mode(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            s.setSoTimeout(2000);
            s.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            return "";
        }
    }

    @Override
    public boolean canPause() {
        return false;
    }

    @Override
    public void pause() {
        throw new UnsupportedOperationException("in-process ZooKeeper servers cannot be paused with SIGSTOP");
    }

    @Override
    public void resume() {
        throw new UnsupportedOperationException("in-process ZooKeeper servers cannot be paused with SIGSTOP");
    }

    @Override
    public void close() {
        try {
            cluster.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
