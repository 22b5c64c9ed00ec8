package io.distlock.zookeeper;

import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import io.distlock.tck.fixture.FreePorts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.ClientWatches;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.FourLetterWordMain;

/**
 * Real in-process ZooKeeper servers for the tests, on free ports, with a 500 ms tick so that session timeouts of a few
 * seconds are allowed (ZooKeeper accepts 2 to 20 ticks), and URIs and raw clients to reach them.
 */
final class TestServers {

    static final int TICK_MS = 500;

    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    static {
        // the servers live as long as one test class: no need to fsync their transaction logs (as Redis here runs
        // without persistence); this keeps the in-process servers fast on a machine shared by many builds
        System.setProperty("zookeeper.forceSync", "no");
    }

    private TestServers() {
    }

    static InstanceSpec spec() {
        return new InstanceSpec(null, uniquePort(), uniquePort(), uniquePort(), true, -1, TICK_MS, 0);
    }

    /**
     * A free port not handed out before in this JVM. The OS may give a port that was just probed and closed again
     * (Curator's own random ports do not guard against it), and two members of one ensemble given one port do not
     * start ("Multiple entries with same key" from TestingCluster).
     */
    static int uniquePort() {
        while (true) {
            int port = FreePorts.next();
            if (HANDED_OUT.add(port)) {
                return port;
            }
        }
    }

    /** A started single server. */
    static TestingServer server() throws Exception {
        return new TestingServer(spec(), true);
    }

    /**
     * A started single server that also allows sessions of up to {@code maxSession} (its tick alone allows 10 s), so
     * that a test's outages, a restart of this server among them, cannot outlast a session of that length.
     */
    static TestingServer server(Duration maxSession) throws Exception {
        return new TestingServer(new InstanceSpec(null, uniquePort(), uniquePort(), uniquePort(), true, -1, TICK_MS, 0,
                Map.of("maxSessionTimeout", Long.toString(maxSession.toMillis()))), true);
    }

    /**
     * Makes servers started in this JVM from now on delete emptied CONTAINER nodes every {@code containerCheck}
     * instead of every minute (a server reads {@code znode.container.checkIntervalMs} when it starts, and again when
     * it restarts); closing the answer puts the property back.
     */
    static AutoCloseable containerCheck(Duration containerCheck) {
        String key = "znode.container.checkIntervalMs";
        String before = System.getProperty(key);
        System.setProperty(key, Long.toString(containerCheck.toMillis()));
        return () -> {
            if (before == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, before);
            }
        };
    }

    /** A 3-node ensemble, not yet started. */
    static TestingCluster cluster(int size) {
        List<InstanceSpec> specs = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            specs.add(spec());
        }
        return new TestingCluster(specs);
    }

    /**
     * The requests {@code server} has received so far (its {@code srvr} counter): round trips, counted at the server.
     */
    static long requestsReceived(TestingServer server) throws Exception {
        String srvr = FourLetterWordMain.send4LetterWord("127.0.0.1", server.getPort(), "srvr", false, 5000);
        for (String line : srvr.split("\n")) {
            if (line.startsWith("Received:")) {
                return Long.parseLong(line.substring("Received:".length()).trim());
            }
        }
        throw new IllegalStateException(srvr);
    }

    /** A store URI for {@code connectString} under {@code chroot}. */
    static String uri(String connectString, String chroot, Duration session, Duration connection) {
        return "zookeeper://" + connectString + "/" + chroot + "?sessionTimeout=" + session.toMillis()
                + "ms&connectionTimeout=" + connection.toMillis() + "ms";
    }

    /** The backend behind a store opened from a ZooKeeper URI by {@link BackendStores#open}. */
    static ZooKeeperBackend backend(LockStore store) {
        return BackendStores.backend(store, ZooKeeperBackend.class);
    }

    /**
     * The watchers the ZooKeeper client of {@code store} keeps on its side (data, exists and child watchers): what a
     * wait leaves behind if it does not remove its watch.
     */
    static int clientWatchers(LockStore store) {
        ZooKeeper zk = zooKeeper(store);
        return ClientWatches.dataWatchers(zk) + ClientWatches.existWatchers(zk) + ClientWatches.childWatchers(zk);
    }

    /** The paths (from the client's root, not the store's chroot) the ZooKeeper client of {@code store} watches for
     * children, as a lock waiter watches the node before its own. */
    static Set<String> childWatchedPaths(LockStore store) {
        return ClientWatches.childWatchedPaths(zooKeeper(store));
    }

    /** The persistent recursive watchers the ZooKeeper client of {@code store} keeps: its root watches. */
    static int clientRootWatchers(LockStore store) {
        return ClientWatches.persistentRecursiveWatchers(zooKeeper(store));
    }

    private static ZooKeeper zooKeeper(LockStore store) {
        try {
            return backend(store).curator().getZookeeperClient().getZooKeeper();
        } catch (Exception e) {
            throw new IllegalStateException("no ZooKeeper client behind " + store, e);
        }
    }

    /** A backend of its own (no core) for a ZooKeeper URI: tests that watch exactly what the backend reports. */
    static ZooKeeperBackend backend(String uri) {
        ZooKeeperUri parsed = ZooKeeperUri.parse(io.distlock.spi.StoreUri.parse(uri));
        return new ZooKeeperBackend(CuratorClients.connect(parsed), parsed.redacted(), parsed.connectionTimeout(),
                parsed.sessionTimeout(), CuratorClients.acl(parsed));
    }

    /** A plain Curator client (no distlock), rooted at {@code chroot}, started and connected. */
    static CuratorFramework rawClient(String connectString, String chroot) throws InterruptedException {
        CuratorFramework client = CuratorFrameworkFactory.builder().connectString(connectString)
                .sessionTimeoutMs(10_000).connectionTimeoutMs(10_000).retryPolicy(new RetryOneTime(200))
                .namespace(chroot).ensembleTracker(false).build();
        client.start();
        if (!client.blockUntilConnected(20, java.util.concurrent.TimeUnit.SECONDS)) {
            client.close();
            throw new IllegalStateException("raw client could not connect to " + connectString);
        }
        return client;
    }

    /** Whether the ensemble member {@code spec} is its leader, asked with the {@code srvr} four-letter word. */
    static boolean isLeader(InstanceSpec spec) {
        try {
            return FourLetterWordMain.send4LetterWord("127.0.0.1", spec.getPort(), "srvr", false, 5000)
                    .contains("Mode: leader");
        } catch (Exception e) {
            return false; // a member that does not answer is not the leader
        }
    }

    /** The token the parent's fence stands for now, read by a plain client. */
    static long fence(CuratorFramework raw, String parent) throws Exception {
        org.apache.zookeeper.data.Stat stat = new org.apache.zookeeper.data.Stat();
        byte[] data = raw.getData().storingStatIn(stat).forPath(parent);
        return FenceFloor.last(data, stat.getMtime());
    }
}
