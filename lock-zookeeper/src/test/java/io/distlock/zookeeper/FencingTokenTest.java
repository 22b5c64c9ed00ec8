package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.tck.fixture.ClassFixture;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The fencing token is not the node's sequence number: when a lock's (container) parent is deleted and recreated,
 * the sequence starts again at 0 but the token keeps growing.
 */
class FencingTokenTest {

    @RegisterExtension
    static final ClassFixture<ChrootedServer> zk = new ClassFixture<>(() -> ChrootedServer.start("fencing"));



    @Test
    void tokensKeepIncreasingAfterTheParentIsDeletedAndRecreated() throws Exception {
        String parent = ZooKeeperBackend.parentPath("recreated");
        List<Long> tokens = new ArrayList<>();
        try (LockStore store = zk.get().open()) {
            for (int round = 0; round < 3; round++) {
                // something else advances the zxid between rounds, as other locks do in real life
                zk.get().raw().create().forPath("/other-" + round);
                try (Lease lease = store.lock("recreated").acquire()) {
                    List<String> nodes = zk.get().raw().getChildren().forPath(parent);
                    assertThat(nodes).hasSize(1);
                    assertThat(LockQueue.sequence(nodes.get(0))).as("the sequence restarted with the parent")
                            .isZero();
                    tokens.add(lease.fencingToken());
                }
                zk.get().raw().delete().forPath(parent);
            }
        }
        assertThat(tokens).isSorted().doesNotHaveDuplicates().allMatch(t -> t > 0);
    }
}
