package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockLostException;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;

/**
 * A release whose delete the server applied but whose reply the connection lost (the session lives on): Curator sends
 * the guaranteed delete again once reconnected and gets "no node", its own first delete's doing. The lease was held
 * until its release and must not be reported lost. (Found by {@link ReconnectSweepAttackTest}'s reconnect storm: 1 or 2
 * such false losses in each of 3 runs of 2 chroots.) The interleaving is forced here: just before the release's delete
 * is sent, the holder's own session deletes the node (what the server does with the real delete) and the socket is
 * closed (the reply lost), so the release's delete goes out only on the new connection.
 */
class LostReleaseReplyTest {

    private static final Duration SESSION = Duration.ofSeconds(10);
    private static final Duration CONNECTION = Duration.ofSeconds(3);

    @Test
    void aReleaseWhoseDeleteReplyWasLostInAReconnectIsNotReportedLost() throws Exception {
        try (TestingServer server = TestServers.server();
                LockStore holder = BackendStores.open(TestServers.uri(server.getConnectString(), "lost-release-reply",
                        SESSION, CONNECTION))) {
            ZooKeeperBackend backend = TestServers.backend(holder);
            long session = backend.currentSession();
            Lease lease = holder.lock("name").acquire();
            Queue<String> lost = new ConcurrentLinkedQueue<>();
            lease.onLost(e -> lost.add(e.getMessage()));
            String parent = ZooKeeperBackend.parentPath("name");
            backend.beforeDeleteHook = () -> deleteOursThenDropTheConnection(backend, parent);

            lease.release();

            assertThat(lost).as("losses reported for a lease released in session %x, which lives on", session)
                    .isEmpty();
            assertThat(backend.currentSession()).isEqualTo(session);
        }
    }

    /** The other side of the trade: a node force-released while held, with no reconnect, is still reported lost. */
    @Test
    void aNodeDeletedBehindTheHoldersBackWithoutAReconnectIsStillReportedLostAtRelease() throws Exception {
        try (TestingServer server = TestServers.server();
                LockStore holder = BackendStores.open(TestServers.uri(server.getConnectString(), "deleted-behind",
                        SESSION, CONNECTION));
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "deleted-behind")) {
            TestServers.backend(holder).heldNodes().sweeping = false; // no watch reports it before the release
            Lease lease = holder.lock("name").acquire();
            String parent = ZooKeeperBackend.parentPath("name");
            raw.delete().forPath(parent + "/" + raw.getChildren().forPath(parent).get(0));
            assertThatThrownBy(lease::release).isInstanceOf(LockLostException.class);
        }
    }

    /**
     * A release whose delete on the plain handle could not be sent at all (Curator's {@code getZooKeeper()} threw a
     * failure it had queued, here the one of a handle that could not be made: no server address) goes through
     * Curator's guaranteed delete, and its "no node" is not our own first delete's: nothing of ours went out. A node
     * an operator force-released in that moment, with no reconnect, is reported lost as when the send works.
     */
    @Test
    void aNodeForceReleasedWhileTheReleasesDeleteCouldNotBeSentIsStillReportedLost() throws Exception {
        try (TestingServer server = TestServers.server();
                LockStore holder = BackendStores.open(TestServers.uri(server.getConnectString(), "not-sent",
                        SESSION, CONNECTION));
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "not-sent")) {
            ZooKeeperBackend backend = TestServers.backend(holder);
            backend.heldNodes().sweeping = false; // no watch reports it before the release
            long session = backend.currentSession();
            Lease lease = holder.lock("name").acquire();
            String parent = ZooKeeperBackend.parentPath("name");
            String path = parent + "/" + raw.getChildren().forPath(parent).get(0);
            AtomicBoolean unsent = new AtomicBoolean();
            backend.beforeDeleteHook = () -> {
                try {
                    raw.delete().forPath(path); // the operator's force-release
                } catch (Exception e) {
                    throw new IllegalStateException("could not force-release " + path, e);
                }
                unsent.set(true);
                throw new IllegalArgumentException("A HostProvider may not be empty!");
            };

            assertThatThrownBy(lease::release).as("the release of a node force-released before its delete")
                    .isInstanceOf(LockLostException.class);
            assertThat(unsent).as("the plain delete was not sent").isTrue();
            assertThat(backend.currentSession()).as("no session change").isEqualTo(session);
        }
    }

    private static void deleteOursThenDropTheConnection(ZooKeeperBackend backend, String parent) {
        try {
            ZooKeeper zk = backend.curator().getZookeeperClient().getZooKeeper();
            String full = backend.heldNodes().fullPath(parent);
            List<String> children = zk.getChildren(full, false);
            assertThat(children).as("the holder's node under %s", parent).hasSize(1);
            zk.delete(full + "/" + children.get(0), -1);
            zk.getTestable().closeSocket();
        } catch (Exception e) {
            throw new IllegalStateException("could not stand in for a delete whose reply was lost", e);
        }
    }
}
