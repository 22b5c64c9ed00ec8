package io.distlock.chaos;

import io.distlock.tck.fixture.FreePorts;
import io.distlock.tck.fixture.ServerProcess;
import io.distlock.tck.fixture.TempDirs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Redis-servers of the run's own without persistence, each on a free port in a directory of its own under one
 * temporary directory: the nodes of the Redlock and the Redis Cluster targets, started the same way. Closing it
 * kills every node and deletes the directory.
 */
final class RedisNodes implements AutoCloseable {

    private final Path dir;
    private final List<ServerProcess> nodes = new ArrayList<>();

    /**
     * Starts {@code count} nodes, each with {@code options} after the port, bind and no-persistence ones; if one does
     * not start, the ones started are killed.
     */
    RedisNodes(String dirPrefix, int count, List<String> options) {
        dir = TempDirs.create(dirPrefix);
        try {
            for (int i = 0; i < count; i++) {
                int port = FreePorts.next();
                Path home = dir.resolve("node" + i);
                List<String> command = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(port),
                        "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", home.toString()));
                command.addAll(options);
                if (options.contains("--cluster-enabled") && !options.contains("--cluster-port")) {
                    // the bus port Redis would take (port + 10000) is not known to be free: one that is, kept by the
                    // node's restarts (its command is reused)
                    command.addAll(List.of("--cluster-port", Integer.toString(FreePorts.next())));
                }
                nodes.add(new ServerProcess("redis" + i, command, home, port).start());
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    List<ServerProcess> all() {
        return nodes;
    }

    ServerProcess get(int index) {
        return nodes.get(index);
    }

    /** {@code 127.0.0.1:port} of every node, comma-separated, as a multi-node URI lists them. */
    String hosts() {
        return nodes.stream().map(n -> "127.0.0.1:" + n.port()).collect(Collectors.joining(","));
    }

    @Override
    public void close() {
        nodes.forEach(ServerProcess::kill);
        TempDirs.delete(dir);
    }
}
