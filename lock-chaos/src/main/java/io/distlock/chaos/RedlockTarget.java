package io.distlock.chaos;

import io.distlock.tck.fixture.FreePorts;
import io.distlock.tck.fixture.ServerControl;
import io.distlock.tck.fixture.ServerProcess;
import io.distlock.tck.fixture.TempDirs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Five independent redis-servers of the run's own, for Redlock: some of them can be stopped and started again; a
 * server crash or pause hits the first.
 */
final class RedlockTarget implements StoreTarget {

    private final Path dir = TempDirs.create("chaos-redlock");
    private final List<ServerProcess> nodes = new ArrayList<>();

    RedlockTarget() {
        for (int i = 0; i < 5; i++) {
            int port = FreePorts.next();
            Path nodeDir = dir.resolve("node" + i);
            nodes.add(new ServerProcess("redis" + i, List.of("redis-server", "--port", Integer.toString(port),
                    "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", nodeDir.toString()),
                    nodeDir, port).start());
        }
    }

    @Override
    public String store() {
        return "redlock (5 masters)";
    }

    @Override
    public String uri(int ignoredPort) {
        return "redlock://" + nodes.stream().map(n -> "127.0.0.1:" + n.port()).collect(Collectors.joining(","))
                + "?timeout=1s";
    }

    @Override
    public int port() {
        return nodes.get(0).port();
    }

    @Override
    public Duration holdBound() {
        return RedisTarget.LEASE;
    }

    /** Kills the first {@code count} nodes. */
    void stopNodes(int count) {
        for (int i = 0; i < count; i++) {
            nodes.get(i).kill();
        }
    }

    /** Starts every stopped node again (empty: no persistence). */
    void startStoppedNodes() {
        for (ServerProcess node : nodes) {
            if (!node.isAlive()) {
                node.restart();
            }
        }
    }

    /** The first of the five nodes: a server crash or pause hits one node, a minority. */
    @Override
    public Optional<ServerControl> server() {
        return Optional.of(nodes.get(0));
    }

    @Override
    public void close() {
        nodes.forEach(ServerProcess::kill);
        TempDirs.delete(dir);
    }
}
