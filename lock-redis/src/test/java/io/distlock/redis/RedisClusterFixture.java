package io.distlock.redis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;
import redis.clients.jedis.RedisClient;

/**
 * A 3-master Redis Cluster of test-owned {@code redis-server --cluster-enabled yes} processes on free ports,
 * joined with {@code redis-cli --cluster create}, ready when every node reports {@code cluster_state:ok}.
 */
final class RedisClusterFixture implements AutoCloseable {

    private final List<RedisServer> nodes = new ArrayList<>();

    /** Starts and joins the cluster; skips the test if {@code redis-cli} is missing. */
    static RedisClusterFixture start(int masters) throws IOException, InterruptedException {
        Assumptions.assumeTrue(io.distlock.tck.fixture.ServerProcess.findBinary("redis-cli").isPresent(),
                "skipped: no redis-cli on the PATH to create the cluster");
        RedisClusterFixture cluster = new RedisClusterFixture();
        try {
            for (int i = 0; i < masters; i++) {
                cluster.nodes.add(RedisServer.start("--cluster-enabled", "yes", "--cluster-config-file",
                        "nodes.conf", "--cluster-node-timeout", "5000"));
            }
            cluster.create();
            return cluster;
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    private void create() throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
        nodes.forEach(n -> command.add("127.0.0.1:" + n.port()));
        command.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("redis-cli --cluster create failed: " + output);
        }
        for (RedisServer node : nodes) {
            try (RedisClient client = RedisClient.create("127.0.0.1", node.port())) {
                Awaitility.await("cluster_state:ok on " + node.port()).atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(200))
                        .until(() -> redis.clients.jedis.util.SafeEncoder.encode((byte[]) client.sendCommand(
                                redis.clients.jedis.Protocol.Command.CLUSTER, "INFO")).contains("cluster_state:ok"));
            }
        }
    }

    /** {@code redis-cluster://} URI listing every node, plus {@code query}. */
    String uri(String query) {
        return "redis-cluster://" + nodes.stream().map(n -> "127.0.0.1:" + n.port()).collect(Collectors.joining(","))
                + (query.isEmpty() ? "" : "?" + query);
    }

    /** The nodes. */
    List<RedisServer> nodes() {
        return nodes;
    }

    @Override
    public void close() {
        nodes.forEach(RedisServer::close);
    }
}
