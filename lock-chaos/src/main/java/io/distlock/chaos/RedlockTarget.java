package io.distlock.chaos;

import io.distlock.tck.fixture.ServerControl;
import io.distlock.tck.fixture.ServerProcess;
import java.util.List;
import java.util.Optional;

/**
 * Five independent redis-servers of the run's own, for Redlock: some of them can be stopped and started again; a
 * server crash or pause hits the first.
 */
final class RedlockTarget extends RedisNodesTarget {

    RedlockTarget() {
        super("redlock (5 masters)", "redlock", new RedisNodes("chaos-redlock", 5, List.of()));
    }

    /** Kills the first {@code count} nodes. */
    void stopNodes(int count) {
        for (int i = 0; i < count; i++) {
            nodes.get(i).kill();
        }
    }

    /** Starts every stopped node again (empty: no persistence). */
    void startStoppedNodes() {
        for (ServerProcess node : nodes.all()) {
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
}
