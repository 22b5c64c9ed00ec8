package io.distlock.chaos;

import io.distlock.tck.fixture.FreePorts;
import io.distlock.tck.fixture.ServerControl;
import io.distlock.tck.fixture.ServerProcess;
import io.distlock.tck.fixture.TempDirs;
import io.distlock.tck.process.JvmClassPath;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.netcrusher.core.reactor.NioReactor;
import org.netcrusher.tcp.TcpCrusher;
import org.netcrusher.tcp.TcpCrusherBuilder;

/**
 * A 3-node ZooKeeper ensemble of separate server JVMs whose members reach each other only through TCP proxies, one
 * per ordered pair and port (quorum and election): each server's configuration lists itself at its real ports and
 * every peer at the proxy in front of that peer. Partitioning the leader closes every proxy to and from it (open
 * connections reset, new ones refused), so the two others elect a new leader while the old one loses its quorum.
 * (Freezing the proxies instead left the two others without a leader for the whole partition in most runs: the
 * kernel still accepts connections to a frozen proxy.) Clients connect to the servers directly.
 */
final class ZooKeeperPartitionTarget implements StoreTarget {

    private static final int SERVERS = 3;
    private static final Duration READY = Duration.ofSeconds(90);

    private final Path dir = TempDirs.create("chaos-zk-partition");
    private final int[] clientPorts = new int[SERVERS];
    private final int[] quorumPorts = new int[SERVERS];
    private final int[] electionPorts = new int[SERVERS];
    private final TcpCrusher[][] quorumProxies = new TcpCrusher[SERVERS][SERVERS];
    private final TcpCrusher[][] electionProxies = new TcpCrusher[SERVERS][SERVERS];
    private final List<ServerProcess> servers = new ArrayList<>();
    private final NioReactor reactor;
    private int partitions;
    private String lastPartition = "";

    ZooKeeperPartitionTarget() {
        try {
            reactor = new NioReactor();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            for (int i = 0; i < SERVERS; i++) {
                clientPorts[i] = FreePorts.next();
                quorumPorts[i] = FreePorts.next();
                electionPorts[i] = FreePorts.next();
            }
            for (int from = 0; from < SERVERS; from++) {
                for (int to = 0; to < SERVERS; to++) {
                    if (from != to) {
                        quorumProxies[from][to] = proxy(quorumPorts[to]);
                        electionProxies[from][to] = proxy(electionPorts[to]);
                    }
                }
            }
            for (int i = 0; i < SERVERS; i++) {
                servers.add(startServer(i));
            }
            awaitQuorum();
        } catch (RuntimeException | IOException | InterruptedException e) {
            close();
            throw new IllegalStateException("could not start a partitionable ZooKeeper ensemble", e);
        }
    }

    private TcpCrusher proxy(int target) {
        return TcpCrusherBuilder.builder().withReactor(reactor).withBindAddress("127.0.0.1", FreePorts.next())
                .withConnectAddress("127.0.0.1", target).buildAndOpen();
    }

    private ServerProcess startServer(int i) throws IOException {
        Path home = dir.resolve("zk" + (i + 1));
        Path data = home.resolve("data");
        Files.createDirectories(data);
        Files.writeString(data.resolve("myid"), Integer.toString(i + 1));
        StringBuilder cfg = new StringBuilder("tickTime=500\ninitLimit=20\nsyncLimit=4\n")
                .append("dataDir=").append(data).append('\n')
                .append("clientPort=").append(clientPorts[i]).append("\nclientPortAddress=127.0.0.1\n")
                .append("4lw.commands.whitelist=srvr\nadmin.enableServer=false\nreconfigEnabled=false\n")
                .append("standaloneEnabled=false\n");
        for (int j = 0; j < SERVERS; j++) {
            int quorum = i == j ? quorumPorts[j] : quorumProxies[i][j].getBindAddress().getPort();
            int election = i == j ? electionPorts[j] : electionProxies[i][j].getBindAddress().getPort();
            cfg.append("server.").append(j + 1).append("=127.0.0.1:").append(quorum).append(':').append(election)
                    .append('\n');
        }
        Path conf = home.resolve("zoo.cfg");
        Files.writeString(conf, cfg.toString());
        String java = JvmClassPath.javaBinary();
        return new ServerProcess("zookeeper", List.of(java, "-Xmx128m", "-XX:TieredStopAtLevel=1",
                "-Dzookeeper.admin.enableServer=false", "-Dzookeeper.cnxTimeout=1000", "-cp", JvmClassPath.current(),
                "org.apache.zookeeper.server.quorum.QuorumPeerMain", conf.toString()), home, clientPorts[i])
                .start(Duration.ofSeconds(60));
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

    private int leader() {
        for (int i = 0; i < SERVERS; i++) {
            if (mode(clientPorts[i]).contains("Mode: leader")) {
                return i;
            }
        }
        return -1;
    }

    /** Waits until one server leads and the two others follow. */
    private void awaitQuorum() throws InterruptedException {
        long deadline = System.nanoTime() + READY.toNanos();
        while (System.nanoTime() - deadline < 0) {
            int leaders = 0;
            int followers = 0;
            for (int i = 0; i < SERVERS; i++) {
                String mode = mode(clientPorts[i]);
                leaders += mode.contains("Mode: leader") ? 1 : 0;
                followers += mode.contains("Mode: follower") ? 1 : 0;
            }
            if (leaders == 1 && followers == SERVERS - 1) {
                return;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200)); // polling the servers' state, bounded
        }
        throw new IllegalStateException("the ZooKeeper ensemble formed no quorum within " + READY);
    }

    /**
     * Closes every proxy to and from the leader for {@code length}, then opens them again and waits for a full
     * quorum.
     *
     * @return whether a new leader was elected by the others during the partition
     */
    boolean partitionLeader(Duration length) throws InterruptedException {
        int old = leader();
        if (old < 0) {
            throw new IllegalStateException("no ZooKeeper leader to partition");
        }
        List<TcpCrusher> cut = new ArrayList<>();
        for (int other = 0; other < SERVERS; other++) {
            if (other != old) {
                cut.addAll(List.of(quorumProxies[old][other], quorumProxies[other][old], electionProxies[old][other],
                        electionProxies[other][old]));
            }
        }
        cut.forEach(TcpCrusher::close);
        int during = -1;
        long end = System.nanoTime() + length.toNanos();
        try {
            while (System.nanoTime() - end < 0) {
                int now = leader();
                if (now >= 0 && now != old) {
                    during = now;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(250)); // the partition itself, watched
            }
        } finally {
            cut.forEach(TcpCrusher::open);
        }
        awaitQuorum();
        partitions++;
        boolean moved = during >= 0 && during != old;
        lastPartition = "leader zk" + (old + 1) + " cut off; " + (moved ? "zk" + (during + 1) + " elected" : "no new "
                + "leader seen at the end of the partition") + "; now zk" + (leader() + 1) + " leads";
        return moved;
    }

    @Override
    public String note() {
        return partitions == 0 ? "" : partitions + " partitions (last: " + lastPartition + ")";
    }

    @Override
    public String store() {
        return "zookeeper (3 JVMs, members behind proxies)";
    }

    @Override
    public String uri(int ignoredPort) {
        String hosts = java.util.Arrays.stream(clientPorts).mapToObj(p -> "127.0.0.1:" + p)
                .collect(Collectors.joining(","));
        return "zookeeper://" + hosts + "?sessionTimeout=" + ZooKeeperTarget.SESSION.toMillis()
                + "ms&connectionTimeout=2s";
    }

    @Override
    public int port() {
        return clientPorts[0];
    }

    @Override
    public Duration holdBound() {
        return ZooKeeperTarget.SESSION;
    }

    @Override
    public Optional<ServerControl> server() {
        return Optional.empty();
    }

    @Override
    public void close() {
        servers.forEach(ServerProcess::kill);
        for (TcpCrusher[] row : quorumProxies) {
            for (TcpCrusher c : row) {
                if (c != null) {
                    c.close();
                }
            }
        }
        for (TcpCrusher[] row : electionProxies) {
            for (TcpCrusher c : row) {
                if (c != null) {
                    c.close();
                }
            }
        }
        if (reactor != null) {
            reactor.close();
        }
        TempDirs.delete(dir);
    }
}
