package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockLostException;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import io.distlock.tck.fixture.ClassFixture;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Held nodes are kept by their chroot-relative path while ZooKeeper reports paths with the chroot: a lock node
 * deleted behind its holder's back under a chroot is still reported lost by the held-node sweep (its watch, or its
 * read finding the node gone), long before the renewal's store check would find it (a 60 s lease is checked every
 * 20 s), and paths outside the chroot are not taken for ours.
 */
class HeldNodesChrootTest {

    private static final Duration SESSION = Duration.ofSeconds(10);
    @RegisterExtension
    static final ClassFixture<TestingServer> server = new ClassFixture<>(TestServers::server);



    @Test
    void aLockNodeDeletedUnderAChrootIsReportedLostByTheWatch() throws Exception {
        try (LockStore store = BackendStores.open(TestServers.uri(server.get().getConnectString(), "app", SESSION,
                SESSION))) {
            Lease lease = store.lock("orders:42", LockOptions.defaults().withLeaseTime(Duration.ofSeconds(60)))
                    .acquire();
            CountDownLatch lost = new CountDownLatch(1);
            lease.onLost(e -> lost.countDown());
            CuratorFramework raw = TestServers.backend(store).curator();
            String parent = ZooKeeperBackend.parentPath("orders:42");
            for (String node : raw.getChildren().forPath(parent)) {
                raw.delete().forPath(parent + "/" + node);
            }
            assertThat(lost.await(10, TimeUnit.SECONDS)).as("onLost fired before the first renewal check").isTrue();
            assertThatThrownBy(lease::release).isInstanceOf(LockLostException.class);
        }
    }

    @Test
    void reportedPathsMapBackToChrootRelativeOnesAndForeignOnesToNull() throws Exception {
        try (LockStore store = BackendStores.open(TestServers.uri(server.get().getConnectString(), "app", SESSION,
                SESSION));
                LockStore plain = BackendStores.open("zookeeper://" + server.get().getConnectString())) {
            HeldNodes held = TestServers.backend(store).heldNodes();
            assertThat(held.relative("/app/distlock/a/n-1")).isEqualTo("/distlock/a/n-1");
            assertThat(held.relative("/apple/distlock/a/n-1")).isNull();
            assertThat(held.relative("/app")).isNull();
            assertThat(held.relative("/other/distlock/a/n-1")).isNull();
            assertThat(TestServers.backend(plain).heldNodes().relative("/distlock/a/n-1"))
                    .isEqualTo("/distlock/a/n-1");
        }
    }
}
