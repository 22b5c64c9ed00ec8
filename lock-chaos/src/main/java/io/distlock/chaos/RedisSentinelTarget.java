package io.distlock.chaos;

import io.distlock.tck.fixture.FreePorts;
import io.distlock.tck.fixture.ServerControl;
import io.distlock.tck.fixture.ServerProcess;
import io.distlock.tck.fixture.TempDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
    private int secondFailovers;
    private long slowestPromotion;
    private long slowestResync;
    /** Whether this target runs the fail-back (restart guard on); the node paused by {@link #failOverToReplica}. */
    private final boolean failBack;
    private Node paused;
    private int failBacks;

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
        this(false);
    }

    /**
     * @param failBack true: clients use the restart guard, and the target runs the fail-back scenario (an old master
     *     promoted again by the Sentinels with the older history it kept) instead of the failover
     */
    RedisSentinelTarget(boolean failBack) {
        this.failBack = failBack;
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
            awaitHealthyPair();
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

    /**
     * Waits until every Sentinel names the same master, the other node replicates that master with its link up, and
     * every Sentinel knows the replica; returns the master. Whichever node the Sentinels agree on counts: they may
     * have failed over once more on their own meanwhile (see {@link #failover}).
     */
    private int awaitHealthyPair() {
        int[] settled = new int[1];
        try {
            await("the Sentinels agree on a master whose replica is in sync", () -> {
                Integer master = agreedMaster();
                if (master == null || !infoLines(master, "replication").contains("role:master")) {
                    return false;
                }
                List<String> replica = infoLines(other(master), "replication");
                settled[0] = master;
                return replica.contains("master_port:" + master) && replica.contains("master_link_status:up");
            });
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            keepLogs = true;
            throw new IllegalStateException("no master with its replica in sync; " + nodes.stream()
                    .map(n -> n.port + ": " + replication(n.port)).collect(Collectors.joining("; "))
                    + "; Sentinels name " + sentinelViews() + "; logs kept in " + dir, e);
        }
        for (ServerProcess s : sentinels) {
            await("sentinel " + s.port() + " sees the replica", () -> RedisCli.run(s.port(), "INFO", "sentinel")
                    .contains("slaves=1"));
        }
        return settled[0];
    }

    /**
     * Waits until every Sentinel names a master other than {@code oldMaster} and has its link to that master up
     * (flags exactly {@code master}, last good ping reply under a second old), so no Sentinel takes its fresh link
     * to the new master for a dead one.
     */
    private int awaitPromotion(int oldMaster) {
        int[] promoted = new int[1];
        await("every Sentinel names the promoted replica and reaches it", () -> {
            Integer master = agreedMaster();
            if (master == null || master == oldMaster) {
                return false;
            }
            for (ServerProcess s : sentinels) {
                java.util.Map<String, String> state = sentinelMaster(s.port());
                if (!"master".equals(state.get("flags"))
                        || Long.parseLong(state.getOrDefault("last-ok-ping-reply", "999999")) >= 1000) {
                    return false;
                }
            }
            promoted[0] = master;
            return true;
        });
        return promoted[0];
    }

    /** The master every Sentinel names, or null while they disagree. */
    private Integer agreedMaster() throws IOException, InterruptedException {
        Integer agreed = null;
        for (ServerProcess s : sentinels) {
            String[] lines = RedisCli.run(s.port(), "SENTINEL", "get-master-addr-by-name", MASTER).split("\\R");
            if (lines.length < 2) {
                return null;
            }
            int port = Integer.parseInt(lines[1].strip());
            if (agreed != null && agreed != port) {
                return null;
            }
            agreed = port;
        }
        return agreed;
    }

    /** A Sentinel's {@code SENTINEL MASTER} fields (flags, last-ok-ping-reply, ...). */
    private static java.util.Map<String, String> sentinelMaster(int sentinelPort)
            throws IOException, InterruptedException {
        String[] lines = RedisCli.run(sentinelPort, "SENTINEL", "MASTER", MASTER).split("\\R");
        java.util.Map<String, String> fields = new java.util.HashMap<>();
        for (int i = 0; i + 1 < lines.length; i += 2) {
            fields.put(lines[i].strip(), lines[i + 1].strip());
        }
        return fields;
    }

    private static List<String> infoLines(int port, String section) throws IOException, InterruptedException {
        return RedisCli.run(port, "INFO", section).lines().map(String::strip).toList();
    }

    private int other(int port) {
        return nodes.stream().filter(n -> n.port != port).findFirst().orElseThrow().port;
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

    /**
     * Kills the master, waits until every Sentinel names the promoted replica and reaches it, starts the killed node
     * again as that replica's replica, and waits for a master with its replica in sync. Under load the Sentinels
     * sometimes fail over a second time on their own (one misses the new master's ping replies for down-after and
     * its quorum counts the votes of the failover just done): they then promote the node just restarted, before it
     * has synced, with the data it last loaded. Those failovers are counted in the note.
     */
    @Override
    public String failover(String lockName) throws Exception {
        Integer oldMaster = agreedMaster();
        if (oldMaster == null) {
            throw new IllegalStateException("the Sentinels disagree on the master: " + sentinelViews());
        }
        Node victim = nodes.stream().filter(n -> n.port == oldMaster).findFirst().orElseThrow();
        victim.process.kill();
        long killed = System.nanoTime();
        int newMaster = awaitPromotion(oldMaster);
        long promoted = System.nanoTime();
        victim.start(newMaster);
        int settled = awaitHealthyPair();
        failovers++;
        if (settled != newMaster) {
            secondFailovers++;
        }
        slowestPromotion = Math.max(slowestPromotion, promoted - killed);
        slowestResync = Math.max(slowestResync, System.nanoTime() - promoted);
        lastFailover = "master " + oldMaster + " killed, replica " + newMaster + " promoted"
                + (settled != newMaster ? ", then " + settled + " promoted by the Sentinels" : "");
        return lastFailover;
    }

    @Override
    public boolean failsBack() {
        return failBack;
    }

    /**
     * The master is paused (SIGSTOP: it keeps its data and never resyncs) until every Sentinel names the promoted
     * replica and reaches it.
     */
    @Override
    public void failOverToReplica() throws IOException, InterruptedException {
        Integer oldMaster = agreedMaster();
        if (oldMaster == null) {
            throw new IllegalStateException("the Sentinels disagree on the master: " + sentinelViews());
        }
        paused = nodes.stream().filter(n -> n.port == oldMaster).findFirst().orElseThrow();
        paused.process.pause();
        awaitPromotion(oldMaster);
    }

    /**
     * The promoted replica dies (SIGKILL) and the paused old master resumes: the Sentinels make it a replica of the
     * dead master, which it never reaches, and then promote it with the older history it kept. The killed node starts
     * again empty as its replica.
     */
    @Override
    public void failBackToOldMaster() throws IOException, InterruptedException {
        Integer promoted = agreedMaster();
        Node victim = nodes.stream().filter(n -> promoted != null && n.port == promoted).findFirst()
                .orElseThrow(() -> new IllegalStateException("no promoted master: " + sentinelViews()));
        victim.process.kill();
        paused.process.resume();
        long killed = System.nanoTime();
        int back = awaitPromotion(victim.port);
        if (back != paused.port) {
            throw new IllegalStateException("the Sentinels promoted " + back + ", not the old master " + paused.port);
        }
        slowestPromotion = Math.max(slowestPromotion, System.nanoTime() - killed);
        victim.start(back);
        awaitHealthyPair();
        failBacks++;
    }

    /** Polls {@code check} every 100 ms until it holds; a node that does not answer yet is asked again. */
    private static void await(String what, java.util.concurrent.Callable<Boolean> check) {
        Awaitility.await(what).atMost(READY).pollInterval(Duration.ofMillis(100))
                .ignoreExceptionsInstanceOf(IOException.class).until(check);
    }

    @Override
    public String note() {
        if (failBack) {
            return failBacks == 0 ? "" : failBacks + " fail-backs to the old master promoted again by the Sentinels "
                    + "without resync (slowest promotion " + Duration.ofNanos(slowestPromotion).toMillis() + " ms)";
        }
        return failovers == 0 ? "" : failovers + " failovers (last: " + lastFailover + "; " + secondFailovers
                + " followed by a second failover the Sentinels started themselves; slowest promotion "
                + Duration.ofNanos(slowestPromotion).toMillis() + " ms, slowest resync of the old master "
                + Duration.ofNanos(slowestResync).toMillis() + " ms)";
    }

    @Override
    public String store() {
        return failBack ? "redis (Sentinel: master + async replica, fail-back, restartGuard)"
                : "redis (Sentinel: master + async replica)";
    }

    @Override
    public String uri(int ignoredPort) {
        return "redis-sentinel://" + sentinels.stream().map(s -> "127.0.0.1:" + s.port())
                .collect(Collectors.joining(",")) + "/" + MASTER + "?timeout=1s" + (failBack
                        ? "&restartGuard=true&maxLeaseTime=" + RedisTarget.LEASE.toMillis() + "ms" : "");
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
    public Optional<ServerControl> server() {
        return Optional.empty();
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
