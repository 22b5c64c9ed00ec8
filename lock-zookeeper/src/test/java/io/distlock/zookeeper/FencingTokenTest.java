package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The fencing token is not the node's sequence number: when a lock's (container) parent is deleted and recreated,
 * the sequence starts again at 0 but the token keeps growing.
 */
class FencingTokenTest {

    private static TestingServer server;
    private static CuratorFramework raw;

    @BeforeAll
    static void start() throws Exception {
        server = TestServers.server();
        raw = TestServers.rawClient(server.getConnectString(), "fencing");
    }

    @AfterAll
    static void stop() throws Exception {
        raw.close();
        server.close();
    }

    @Test
    void tokensKeepIncreasingAfterTheParentIsDeletedAndRecreated() throws Exception {
        String parent = ZooKeeperBackend.parentPath("recreated");
        List<Long> tokens = new ArrayList<>();
        try (LockStore store = LockStore.open(TestServers.uri(server.getConnectString(), "fencing",
                Duration.ofSeconds(6), Duration.ofSeconds(5)))) {
            for (int round = 0; round < 3; round++) {
                // something else advances the zxid between rounds, as other locks do in real life
                raw.create().forPath("/other-" + round);
                try (Lease lease = store.lock("recreated").acquire()) {
                    List<String> nodes = raw.getChildren().forPath(parent);
                    assertThat(nodes).hasSize(1);
                    assertThat(LockQueue.sequence(nodes.get(0))).as("the sequence restarted with the parent")
                            .isZero();
                    tokens.add(lease.fencingToken());
                }
                raw.delete().forPath(parent);
            }
        }
        assertThat(tokens).isSorted().doesNotHaveDuplicates().allMatch(t -> t > 0);
    }
}
