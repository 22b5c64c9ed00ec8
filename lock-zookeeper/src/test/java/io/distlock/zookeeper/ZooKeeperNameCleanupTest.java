package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.tck.fixture.ClassFixture;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link ZooKeeperNameCleanup} against a real server: after a lock and a semaphore permit of names starting with a
 * prefix were taken and released, the store keeps no node of those names, whatever characters the prefix holds
 * (they are escaped as the store escapes names), and another name's node stays.
 */
class ZooKeeperNameCleanupTest {

    @RegisterExtension
    static final ClassFixture<TestingServer> server = new ClassFixture<>(TestServers::server);



    @Test
    void deletesEveryNodeOfTheNamesWithThePrefixAndNoOther() throws Exception {
        String chroot = "cleanup-" + UUID.randomUUID().toString().substring(0, 8);
        String uri = "zookeeper://" + server.get().getConnectString() + "/" + chroot;
        String prefix = "run 1/ü.";
        String other = "run 1/x";
        try (LockStore store = LockStore.open(uri)) {
            try (Lease lock = store.lock(prefix + "points").acquire();
                    Lease permit = store.semaphore(prefix + "api", 2).acquire();
                    Lease another = store.lock(other).acquire()) {
                assertThat(List.of(lock, permit, another)).allMatch(l -> l.fencingToken() > 0);
            }
        }

        assertThat(ZooKeeperNameCleanup.deleteNames(uri, prefix)).isEqualTo(2);

        assertThat(children(chroot)).containsExactly("/distlock/" + NodeNames.encode(other));
    }

    @Test
    void anEmptyPrefixIsRefusedBeforeAnythingIsDeleted() {
        String uri = "zookeeper://" + server.get().getConnectString();
        assertThatThrownBy(() -> ZooKeeperNameCleanup.deleteNames(uri, ""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("non-empty");
    }

    private static List<String> children(String chroot) throws Exception {
        try (CuratorFramework client = TestServers.rawClient(server.get().getConnectString(), chroot)) {
            List<String> paths = new ArrayList<>();
            for (String root : List.of(ZooKeeperBackend.ROOT, ZooKeeperPermits.ROOT)) {
                if (client.checkExists().forPath(root) != null) {
                    client.getChildren().forPath(root).forEach(child -> paths.add(root + "/" + child));
                }
            }
            return paths;
        }
    }
}
