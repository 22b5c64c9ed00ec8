package io.distlock.chaos;

import io.distlock.tck.fixture.FreePorts;
import io.distlock.tck.fixture.ServerProcess;
import io.distlock.tck.fixture.TempDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;

/**
 * Redis with Sentinel, all processes of the run's own: two redis-servers (a master and its asynchronous replica, no
 * persistence) and three Sentinels (quorum 2, master down after 1 s). A failover kills the master; once the
 * Sentinels have promoted the replica, the killed node is started again as the new master's replica.
 */
final class RedisSentinelTarget implements FailoverTarget {

    static final String MASTER = "chaosmaster";
    private static final Duration READY = Duration.ofSeconds(60);

    private final Path dir = TempDirs.create("chaos-sentinel");
    private final List<Node> nodes = new ArrayList<>();
    private final List<ServerProcess> sentinels = new ArrayList<>();
    private int failovers;
    private String lastFailover = "";
    private boolean keepLogs;
    private long slowestPromotion;
    private long slowestResync;

    /** One redis-server of the pair, restartable as a replica. */
    private final class Node {
        final int port = FreePorts.next();
        final Path home = dir.resolve("node-" + port);
        ServerProcess process;

        void start(Integer replicaOf) {
            List<String> command = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(port), "--bind",
                    "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", home.toString()));
            if (replicaOf != null) {
                command.addAll(List.of("--replicaof", "127.0.0.1", Integer.toString(replicaOf)));
            }
            process = new ServerProcess("redis", command, home, port).start();
        }
    }

    RedisSentinelTarget() {
        try {
            Node master = new Node();
            Node replica = new Node();
            nodes.add(master);
            nodes.add(replica);
            master.start(null);
            replica.start(master.port);
            for (int i = 0; i < 3; i++) {
                sentinels.add(startSentinel(master.port));
            }
            awaitReplicated(master.port);
        } catch (RuntimeException | IOException e) {
            close();
            throw new IllegalStateException("could not start Redis with Sentinel", e);
        }
    }

    private ServerProcess startSentinel(int masterPort) throws IOException {
        int port = FreePorts.next();
        Path home = dir.resolve("sentinel-" + port);
        Files.createDirectories(home);
        Path conf = home.resolve("sentinel.conf"); // a Sentinel rewrites its config file: it must be a real file
        Files.writeString(conf, "sentinel monitor " + MASTER + " 127.0.0.1 " + masterPort + " 2\n"
                + "sentinel down-after-milliseconds " + MASTER + " 1000\n"
                + "sentinel failover-timeout " + MASTER + " 5000\n"
                + "sentinel parallel-syncs " + MASTER + " 1\n");
        return new ServerProcess("sentinel", List.of("redis-server", conf.toString(), "--sentinel", "--port",
                Integer.toString(port), "--bind", "127.0.0.1", "--dir", home.toString()), home, port).start();
    }

    /** Waits until the replica of {@code masterPort} is in sync and every Sentinel knows it. */
    private void awaitReplicated(int masterPort) {
        int replicaPort = nodes.stream().filter(n -> n.port != masterPort).findFirst().orElseThrow().port;
        try {
            await("replica " + replicaPort + " in sync", () -> RedisCli.run(replicaPort, "INFO", "replication")
                    .contains("master_link_status:up"));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            keepLogs = true;
            throw new IllegalStateException("replica " + replicaPort + " not in sync with " + masterPort + "; replica: "
                    + replication(replicaPort) + "; master: " + replication(masterPort) + "; Sentinels name "
                    + sentinelViews() + "; logs kept in " + dir, e);
        }
        for (ServerProcess s : sentinels) {
            await("sentinel " + s.port() + " sees the replica", () -> RedisCli.run(s.port(), "INFO", "sentinel")
                    .contains("slaves=1"));
        }
    }

    /** The role, master and link lines of a node's INFO replication, for a failure message. */
    private static String replication(int port) {
        try {
            return RedisCli.run(port, "INFO", "replication").lines()
                    .filter(l -> l.startsWith("role") || l.startsWith("master_") || l.startsWith("connected_slaves")
                            || l.startsWith("slave0"))
                    .map(String::strip).collect(Collectors.joining(" "));
        } catch (IOException e) {
            return "unreachable (" + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    /** The master each Sentinel names right now, for a failure message. */
    private String sentinelViews() {
        List<String> views = new ArrayList<>();
        for (ServerProcess s : sentinels) {
            try {
                views.add(s.port() + ": " + RedisCli.run(s.port(), "SENTINEL", "get-master-addr-by-name", MASTER)
                        .replaceAll("\\R", " "));
            } catch (IOException e) {
                views.add(s.port() + ": unreachable");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "interrupted";
            }
        }
        return String.join(", ", views);
    }

    private int masterPort() throws IOException, InterruptedException {
        for (ServerProcess s : sentinels) {
            String out = RedisCli.run(s.port(), "SENTINEL", "get-master-addr-by-name", MASTER);
            String[] lines = out.split("\\R");
            if (lines.length >= 2) {
                return Integer.parseInt(lines[1].strip());
            }
        }
        throw new IllegalStateException("no Sentinel names the master of " + MASTER);
    }

    @Override
    public String failover(String lockName) throws Exception {
        int oldMaster = masterPort();
        Node victim = nodes.stream().filter(n -> n.port == oldMaster).findFirst().orElseThrow();
        victim.process.kill();
        long killed = System.nanoTime();
        await("a Sentinel promotes the replica", () -> masterPort() != oldMaster);
        long promoted = System.nanoTime();
        int newMaster = masterPort();
        victim.start(newMaster);
        awaitReplicated(newMaster);
        failovers++;
        slowestPromotion = Math.max(slowestPromotion, promoted - killed);
        slowestResync = Math.max(slowestResync, System.nanoTime() - promoted);
        lastFailover = "master " + oldMaster + " killed, replica " + newMaster + " promoted";
        return lastFailover;
    }

    /** Polls {@code check} every 100 ms until it holds; a node that does not answer yet is asked again. */
    private static void await(String what, java.util.concurrent.Callable<Boolean> check) {
        Awaitility.await(what).atMost(READY).pollInterval(Duration.ofMillis(100))
                .ignoreExceptionsInstanceOf(IOException.class).until(check);
    }

    @Override
    public String note() {
        return failovers == 0 ? "" : failovers + " failovers (last: " + lastFailover + "; slowest promotion "
                + Duration.ofNanos(slowestPromotion).toMillis() + " ms, slowest resync of the old master "
                + Duration.ofNanos(slowestResync).toMillis() + " ms)";
    }

    @Override
    public String store() {
        return "redis (Sentinel: master + async replica)";
    }

    @Override
    public String uri(int ignoredPort) {
        return "redis-sentinel://" + sentinels.stream().map(s -> "127.0.0.1:" + s.port())
                .collect(Collectors.joining(",")) + "/" + MASTER + "?timeout=1s";
    }

    @Override
    public int port() {
        return nodes.get(0).port;
    }

    @Override
    public Duration holdBound() {
        return RedisTarget.LEASE;
    }

    @Override
    public boolean canCrash() {
        return false;
    }

    @Override
    public void crashAndRestart(Duration down) {
        throw new UnsupportedOperationException("Sentinel: the crash of the master is the failover scenario");
    }

    @Override
    public boolean canPause() {
        return false;
    }

    @Override
    public void pause() {
        throw new UnsupportedOperationException("Sentinel: pausing is not part of the failover scenario");
    }

    @Override
    public void resume() {
        throw new UnsupportedOperationException("Sentinel: pausing is not part of the failover scenario");
    }

    @Override
    public void close() {
        sentinels.forEach(ServerProcess::kill);
        nodes.stream().filter(n -> n.process != null).forEach(n -> n.process.kill());
        if (!keepLogs) {
            TempDirs.delete(dir);
        }
    }
}
