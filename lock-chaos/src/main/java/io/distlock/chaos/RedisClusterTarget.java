package io.distlock.chaos;

import io.distlock.tck.fixture.ServerControl;
import io.distlock.tck.fixture.ServerProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/**
 * A Redis Cluster of the run's own: three masters, each with one asynchronous replica (six redis-servers, no
 * persistence, node timeout 2 s), joined with {@code redis-cli --cluster create}. A failover kills the master that
 * serves the lock's slot; once its replica has taken over, the killed node is started again from its own
 * {@code nodes.conf} and rejoins as a replica.
 */
final class RedisClusterTarget extends RedisNodesTarget implements FailoverTarget {

    private static final Duration READY = Duration.ofSeconds(90);

    private final List<ServerProcess> servers;
    private int failovers;
    private String lastFailover = "";

    RedisClusterTarget() {
        super("redis (Cluster: 3 masters + async replicas)", "redis-cluster", startNodes());
        servers = nodes.all();
        try {
            List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
            servers.forEach(n -> create.add("127.0.0.1:" + n.port()));
            create.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
            Process p = new ProcessBuilder(create).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("redis-cli --cluster create failed: " + output);
            }
            for (ServerProcess n : servers) {
                await("cluster_state:ok on " + n.port(), () -> RedisCli.run(n.port(), "CLUSTER", "INFO")
                        .contains("cluster_state:ok"));
            }
            for (ServerProcess n : servers) {
                await("every replica in sync", () -> !RedisCli.run(n.port(), "INFO", "replication")
                        .contains("role:slave") || RedisCli.run(n.port(), "INFO", "replication")
                        .contains("master_link_status:up"));
            }
        } catch (RuntimeException | IOException | InterruptedException e) {
            close();
            throw new IllegalStateException("could not start a Redis Cluster", e);
        }
    }

    private static RedisNodes startNodes() {
        try {
            return new RedisNodes("chaos-cluster", 6, List.of("--cluster-enabled", "yes", "--cluster-config-file",
                    "nodes.conf", "--cluster-node-timeout", "2000"));
        } catch (RuntimeException e) {
            throw new IllegalStateException("could not start a Redis Cluster", e);
        }
    }

    /** The port of the live master serving {@code slot}, asked of any live node. */
    private int masterOf(int slot) throws IOException, InterruptedException {
        for (ServerProcess n : servers) {
            if (!n.isAlive()) {
                continue;
            }
            for (String line : RedisCli.run(n.port(), "CLUSTER", "NODES").split("\\R")) {
                String[] f = line.strip().split(" ");
                if (f.length < 9 || !f[2].contains("master") || f[2].contains("fail")) {
                    continue;
                }
                for (int i = 8; i < f.length; i++) {
                    if (f[i].startsWith("[")) {
                        continue; // a slot being migrated
                    }
                    String[] range = f[i].split("-");
                    int from = Integer.parseInt(range[0]);
                    int to = range.length > 1 ? Integer.parseInt(range[1]) : from;
                    if (slot >= from && slot <= to) {
                        return Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1, f[1].indexOf('@')));
                    }
                }
            }
            break;
        }
        return -1;
    }

    @Override
    public String failover(String lockName) throws Exception {
        ServerProcess any = servers.stream().filter(ServerProcess::isAlive).findFirst().orElseThrow();
        int slot = Integer.parseInt(RedisCli.run(any.port(), "CLUSTER", "KEYSLOT", lockName).strip());
        int oldMaster = masterOf(slot);
        ServerProcess victim = servers.stream().filter(n -> n.port() == oldMaster).findFirst().orElseThrow();
        victim.kill();
        await("a replica takes over slot " + slot, () -> {
            int now = masterOf(slot);
            return now > 0 && now != oldMaster;
        });
        int newMaster = masterOf(slot);
        victim.start();
        await("the old master rejoins as a replica in sync", () -> {
            String info = RedisCli.run(oldMaster, "INFO", "replication");
            return info.contains("role:slave") && info.contains("master_link_status:up");
        });
        for (ServerProcess n : servers) {
            await("cluster_state:ok on " + n.port(), () -> RedisCli.run(n.port(), "CLUSTER", "INFO")
                    .contains("cluster_state:ok"));
        }
        failovers++;
        lastFailover = "master " + oldMaster + " of slot " + slot + " killed, replica " + newMaster + " promoted";
        return lastFailover;
    }

    /** Polls {@code check} every 100 ms until it holds; a node that does not answer yet is asked again. */
    private static void await(String what, java.util.concurrent.Callable<Boolean> check) {
        Awaitility.await(what).atMost(READY).pollInterval(Duration.ofMillis(100))
                .ignoreExceptionsInstanceOf(IOException.class).until(check);
    }

    @Override
    public String note() {
        return failovers == 0 ? "" : failovers + " failovers (last: " + lastFailover + ")";
    }

    @Override
    public Optional<ServerControl> server() {
        return Optional.empty();
    }
}
