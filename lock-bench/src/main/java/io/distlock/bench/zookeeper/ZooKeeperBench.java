package io.distlock.bench.zookeeper;

import io.distlock.bench.core.Contender;
import io.distlock.bench.core.HostPort;
import io.distlock.bench.core.StoreBench;
import io.distlock.bench.core.SemaphoreContender;
import io.distlock.bench.distlock.DistlockContender;
import io.distlock.bench.distlock.DistlockSemaphoreContender;
import io.distlock.bench.core.ThreadCosts;
import io.distlock.bench.core.WireProtocol;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.Version;

/**
 * ZooKeeper run in-process by the harness (Curator's {@link TestingServer} on a free port), so the benchmark owns
 * it: distlock, Curator's {@code InterProcessMutex} (alone, and with a fencing token from its
 * {@code DistributedAtomicLong}) and the raw recipe; distlock's semaphore and Curator's
 * {@code InterProcessSemaphoreV2}.
 */
public final class ZooKeeperBench implements StoreBench {

    private final TestingServer server;
    private final String distlockUri;

    /** Starts an in-process ZooKeeper; {@code distlockUri} is the distlock URI template with {host} and {port}. */
    public ZooKeeperBench(String distlockUri) throws Exception {
        // no limit on connections per client address (ZooKeeper's default is 60): the waiters curve opens 64
        // clients, each with its own session, all from 127.0.0.1 through the counting proxy
        this.server = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, -1, 0), true);
        this.distlockUri = distlockUri;
    }

    @Override
    public String name() {
        return "zookeeper";
    }

    @Override
    public String describeServer() {
        return "ZooKeeper " + Version.getFullVersion().split("[ ,-]")[0]
                + " in-process (curator-test TestingServer) at "
                + server();
    }

    @Override
    public WireProtocol protocol() {
        return WireProtocol.ZOOKEEPER;
    }

    /** CPU of the in-process server's threads. */
    @Override
    public OptionalDouble serverCpuSeconds() {
        return OptionalDouble.of(ThreadCosts.serverCpuSeconds());
    }

    /**
     * Nodes whose path contains {@code marker}, each counted with its descendants; unmarked nodes are searched two
     * levels deep (roots such as {@code /distlock} and their containers), never {@code /zookeeper}.
     */
    @Override
    public OptionalLong leftover(String marker) throws Exception {
        try (CuratorFramework curator = Zk.connect(server())) {
            return OptionalLong.of(count(curator, "", marker, false, 0));
        }
    }

    private static long count(CuratorFramework curator, String path, String marker, boolean marked, int depth)
            throws Exception {
        List<String> children;
        try {
            children = curator.getChildren().forPath(path.isEmpty() ? "/" : path);
        } catch (KeeperException.NoNodeException e) {
            return 0;
        }
        long n = 0;
        for (String child : children) {
            String childPath = path + "/" + child;
            if (marked || child.contains(marker)) {
                n += 1 + count(curator, childPath, marker, true, depth + 1);
            } else if (depth < 2 && !childPath.equals("/zookeeper")) {
                n += count(curator, childPath, marker, false, depth + 1);
            }
        }
        return n;
    }

    @Override
    public HostPort server() {
        return new HostPort("127.0.0.1", server.getPort());
    }

    @Override
    public List<Contender> contenders(HostPort via) {
        return List.of(
                new DistlockContender(via.fill(distlockUri)),
                new CuratorContender(via),
                new CuratorContender(via, true),
                new RawZooKeeperContender(via),
                new DistlockSemaphoreContender(via.fill(distlockUri), SemaphoreContender.DEFAULT_PERMITS),
                new CuratorSemaphoreContender(via, SemaphoreContender.DEFAULT_PERMITS));
    }

    @Override
    public void close() throws Exception {
        server.close();
    }
}
