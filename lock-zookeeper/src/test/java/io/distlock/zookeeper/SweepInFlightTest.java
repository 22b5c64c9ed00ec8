package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.test.TestingServer;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The sweep after a reconnect ({@link RevivedNodes}) judged while a node of ours is in flight: a contender come first
 * but not yet stamped or granted, a waiter queued behind another store's holder. The connection is dropped at that
 * very moment and the acquisition held there until the sweep has run; a marker node of the same session, which nobody
 * uses, shows that it ran (it deletes the marker in the same pass that judges our node). The node in flight must
 * survive: the grant is made, its node is at the server, and another client is kept out.
 */
class SweepInFlightTest {

    private static final Duration SESSION = Duration.ofSeconds(10);
    private static final Duration CONNECTION = Duration.ofSeconds(3);

    private TestingServer server;
    private String uri;

    @BeforeEach
    void start() throws Exception {
        server = TestServers.server();
        uri = TestServers.uri(server.getConnectString(), "in-flight", SESSION, CONNECTION);
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    @Test
    void aLockContenderComeFirstButNotStampedSurvivesTheSweep() throws Exception {
        survives(false, true);
    }

    @Test
    void aLockContenderStampedButNotGrantedSurvivesTheSweep() throws Exception {
        survives(false, false);
    }

    @Test
    void aPermitContenderComeFirstButNotStampedSurvivesTheSweep() throws Exception {
        survives(true, true);
    }

    @Test
    void aWaiterQueuedBehindAnotherStoresHolderSurvivesTheSweepAndIsGranted() throws Exception {
        try (LockStore holder = BackendStores.open(uri); LockStore waiter = BackendStores.open(uri)) {
            Lease held = holder.lock("name").acquire();
            ZooKeeperBackend backend = TestServers.backend(waiter);
            CompletableFuture<Optional<Lease>> waiting = CompletableFuture.supplyAsync(() -> {
                try {
                    return waiter.lock("name").tryAcquire(SESSION);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            String parent = ZooKeeperBackend.parentPath("name");
            await("the waiter queued").atMost(CONNECTION)
                    .until(() -> children(backend, parent) == 2);
            dropAndAwaitTheSweep(backend);
            assertThat(children(backend, parent)).as("nodes under the lock after the waiter's sweep").isEqualTo(2);
            held.release();
            Optional<Lease> got = waiting.get(CONNECTION.multipliedBy(2).toMillis(), TimeUnit.MILLISECONDS);
            assertThat(got).as("the waiter, once the holder released").isPresent();
            got.get().release();
        }
    }

    private void survives(boolean permit, boolean beforeStamp) throws Exception {
        try (LockStore store = BackendStores.open(uri); LockStore other = BackendStores.open(uri)) {
            ZooKeeperBackend backend = TestServers.backend(store);
            Queue<String> lost = new ConcurrentLinkedQueue<>();
            AtomicBoolean once = new AtomicBoolean();
            Runnable hook = () -> {
                if (once.compareAndSet(false, true)) {
                    dropAndAwaitTheSweep(backend);
                }
            };
            if (beforeStamp) {
                backend.beforeStampHook = hook;
            } else {
                backend.beforeGrantHook = hook;
            }
            Optional<Lease> granted = permit ? store.semaphore("name", 1).tryAcquire(SESSION.multipliedBy(2))
                    : store.lock("name").tryAcquire(SESSION.multipliedBy(2));
            assertThat(granted).as("the acquisition across the sweep, within %s", SESSION.multipliedBy(2)).isPresent();
            Lease lease = granted.get();
            backend.beforeStampHook = () -> { };
            backend.beforeGrantHook = () -> { };
            lease.onLost(e -> lost.add(e.getMessage()));
            Optional<Lease> second = permit ? other.semaphore("name", 1).tryAcquire(Duration.ofMillis(500))
                    : other.lock("name").tryAcquire(Duration.ofMillis(500));
            second.ifPresent(Lease::release);
            assertThat(second).as("another client's acquisition while the lease granted across the sweep holds")
                    .isEmpty();
            assertThat(lease.isValid()).isTrue();
            lease.release();
            assertThat(lost).as("losses of the lease granted across the sweep").isEmpty();
        }
    }

    /**
     * Makes an unused ephemeral node of the store's session under the lock root, drops the connection, and waits
     * until the sweep after the reconnect has deleted that marker.
     */
    private static void dropAndAwaitTheSweep(ZooKeeperBackend backend) {
        try {
            ZooKeeper zk = backend.curator().getZookeeperClient().getZooKeeper();
            String markers = backend.heldNodes().fullPath(ZooKeeperBackend.ROOT + "/sweep-marker");
            ZKPaths.mkdirs(zk, markers);
            String marker = zk.create(markers + "/m", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE,
                    CreateMode.EPHEMERAL_SEQUENTIAL);
            zk.getTestable().closeSocket();
            await("the sweep after the reconnect deleted the unused marker " + marker).atMost(SESSION)
                    .ignoreExceptionsInstanceOf(KeeperException.ConnectionLossException.class)
                    .until(() -> backend.curator().getZookeeperClient().isConnected()
                            && backend.curator().getZookeeperClient().getZooKeeper().exists(marker, false) == null);
        } catch (Exception e) {
            throw new IllegalStateException("could not drop the connection and await the sweep", e);
        }
    }

    private static int children(ZooKeeperBackend backend, String parent) throws Exception {
        return backend.curator().getZookeeperClient().getZooKeeper()
                .getChildren(backend.heldNodes().fullPath(parent), false).size();
    }
}
