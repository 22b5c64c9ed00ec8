package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LeaseState;
import io.distlock.LockLostException;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import io.distlock.tck.fixture.ClassFixture;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.curator.utils.ZKPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code Lease.extend} on the ZooKeeper store asks the server whether the lease's node is still there, through the
 * whole store (core and backend): a node deleted behind its holder's back by another client makes {@code extend}
 * return false and the lease lost at once, before any watch reports the deletion.
 */
class ExtendChecksTheStoreTest {

    private static final String CHROOT = "extend";
    private static final Duration PROMPTLY = Duration.ofSeconds(3);

    @RegisterExtension
    static final ClassFixture<TestingServer> server = new ClassFixture<>(TestServers::server);



    private static LockStore open() {
        return BackendStores.open(TestServers.uri(server.get().getConnectString(), CHROOT, Duration.ofSeconds(6),
                Duration.ofSeconds(5)));
    }

    @Test
    void extendOfANodeDeletedBehindTheHoldersBackReturnsFalseAndLosesTheLease() throws Exception {
        try (LockStore store = open();
                CuratorFramework raw = TestServers.rawClient(server.get().getConnectString(), CHROOT)) {
            // no watch may report the deletion before extend asks: only the store check can find it
            TestServers.backend(store).heldNodes().sweeping = false;
            Lease lease = store.lock("deleted").acquire();
            CompletableFuture<LockLostException> lost = new CompletableFuture<>();
            lease.onLost(lost::complete);
            String parent = ZooKeeperBackend.parentPath("deleted");
            List<String> nodes = raw.getChildren().forPath(parent);
            assertThat(nodes).as("the holder's node").hasSize(1);
            raw.delete().forPath(ZKPaths.makePath(parent, nodes.get(0)));
            assertThat(lease.isValid()).as("nothing on the holder's side knows of the deletion yet").isTrue();

            assertThat(lease.extend(Duration.ofSeconds(30))).as("extend after the node was deleted").isFalse();

            assertThat(lease.state()).isEqualTo(LeaseState.LOST);
            assertThat(lease.isValid()).isFalse();
            LockLostException signal = lost.get(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(signal.getMessage()).contains("deleted").contains("extend");
            assertThatThrownBy(lease::release).isInstanceOf(LockLostException.class);
        }
    }

    @Test
    void extendOfAHeldNodeKeepsTheLease() throws Exception {
        try (LockStore store = open(); LockStore other = open()) {
            Lease lease = store.lock("kept").acquire();
            assertThat(lease.extend(Duration.ofSeconds(30))).isTrue();
            assertThat(lease.state()).isEqualTo(LeaseState.HELD);
            assertThat(other.lock("kept").tryAcquire()).as("still held in the store").isEmpty();
            lease.release();
            assertThat(other.lock("kept").tryAcquire(PROMPTLY)).isPresent().get().satisfies(Lease::release);
        }
    }
}
