package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

/**
 * Z8/Z8b of lock-tck/DEFECTS.md: a create whose reply is lost when the server goes away (the node exists, the client
 * saw a connection loss) and a server that stays away for a few connection timeouts. Curator's protected create handed
 * such a create, once its retries were spent, to its background clean-up, which ran itself again on the same stack
 * while the client was not connected (CURATOR-106): a {@code StackOverflowError} and a storm of "retry gave up" errors
 * on Curator's event thread. The store must leave no such clean-up to Curator, and still leave no node of its live
 * session behind once the server is back. The reply is lost for real: a proxy forwards the create, swallows its reply
 * and refuses connections for the outage; Curator's errors are counted where it reports them (its unhandled-error
 * listeners, called for every error it logs).
 */
class LostCreateReplyTest {

    private static final Duration SESSION = Duration.ofSeconds(10);
    private static final Duration CONNECTION = Duration.ofSeconds(1);
    /** Long enough for the create's retries to be spent and for a clean-up after them to be spent too. */
    private static final Duration OUTAGE = Duration.ofSeconds(4);
    /** Long enough for Curator to send the create again once the connection is back. */
    private static final Duration BLIP_CONNECTION = Duration.ofSeconds(4);
    /** Errors Curator may report for one lost create and what follows it (each spent operation once). */
    private static final int FEW = 10;

    @Test
    void aCreateWhoseReplyIsLostInAnOutageStartsNoCleanupStormAndLeavesNoNode() throws Exception {
        try (TestingServer server = TestServers.server();
                OpReplyCutter proxy = new OpReplyCutter(server.getPort());
                LockStore holder = BackendStores.open(TestServers.uri(server.getConnectString(), "lost-create",
                        SESSION, CONNECTION));
                LockStore store = BackendStores.open(TestServers.uri(proxy.connectString(), "lost-create",
                        SESSION, CONNECTION));
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "lost-create")) {
            Queue<String> errors = new ConcurrentLinkedQueue<>();
            AtomicInteger reported = new AtomicInteger();
            AtomicInteger protectedCleanups = new AtomicInteger();
            ZooKeeperBackend backend = TestServers.backend(store);
            long session = backend.currentSession();
            backend.curator().getUnhandledErrorListenable().addListener((message, e) -> {
                if (reported.incrementAndGet() <= FEW) {
                    errors.add(message + ": " + e);
                }
                if (mentions(e, "FindAndDeleteProtectedNodeInBackground")) {
                    protectedCleanups.incrementAndGet();
                }
            });
            Lease held = holder.lock("name").acquire();
            String parent = ZooKeeperBackend.parentPath("name");

            proxy.loseReplyOfNext(OpReplyCutter.CREATE2, true);
            assertThatThrownBy(() -> store.lock("name").tryAcquire(Duration.ofSeconds(1)))
                    .as("a create whose reply was lost and whose server is gone")
                    .isInstanceOf(StoreUnavailableException.class);
            assertThat(proxy.cut().await(0, TimeUnit.SECONDS)).as("the create's reply was lost").isTrue();
            assertThat(raw.getChildren().forPath(parent)).as("the lost create made its node").hasSize(2);

            await("no clean-up of a protected create during an outage of " + OUTAGE)
                    .during(OUTAGE).atMost(OUTAGE.plusSeconds(2))
                    .untilAsserted(() -> assertThat(protectedCleanups.get())
                            .as("errors reported from Curator's protected-create clean-up (%s errors reported in all; "
                                    + "the first: %s)", reported.get(), errors)
                            .isZero());

            proxy.restore();
            await("the lost create's node is deleted once the server is back").atMost(SESSION)
                    .ignoreExceptions().until(() -> raw.getChildren().forPath(parent).size() == 1);
            assertThat(backend.currentSession()).as("the session lived through the outage").isEqualTo(session);
            assertThat(protectedCleanups).as("errors of Curator's protected-create clean-up").hasValue(0);
            assertThat(reported.get()).as("errors Curator reported (the first: %s)", errors)
                    .isLessThanOrEqualTo(FEW);

            held.release();
            assertThat(store.lock("name").tryAcquire(CONNECTION)).as("nothing of ours blocks the lock")
                    .isPresent().get().satisfies(Lease::release);
        }
    }

    /**
     * The other half of what protection did: a contender whose create reply is lost in a blip (the connection is back
     * within the connection timeout) gets its node from Curator's create sent again, behind the node the lost create
     * made. That node of ours must go, and the contender take the lock at the holder's release, as with protection.
     */
    @Test
    void aContenderWhoseCreateReplyIsLostInABlipWaitsOnItsOwnNodeAlone() throws Exception {
        contenderWhoseCreateReplyIsLostInABlip("lost-create-blip", false);
    }

    /**
     * The same when the lost create went on the plain ZooKeeper handle (the store released the name a moment ago, so
     * its parent is most likely there): its connection loss sends the create again through Curator.
     */
    @Test
    void aContenderWhosePlainCreateReplyIsLostInABlipWaitsOnItsOwnNodeAlone() throws Exception {
        contenderWhoseCreateReplyIsLostInABlip("lost-plain-create-blip", true);
    }

    private static void contenderWhoseCreateReplyIsLostInABlip(String chroot, boolean releasedBefore)
            throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (TestingServer server = TestServers.server();
                OpReplyCutter proxy = new OpReplyCutter(server.getPort());
                LockStore holder = BackendStores.open(TestServers.uri(server.getConnectString(), chroot,
                        SESSION, BLIP_CONNECTION));
                LockStore store = BackendStores.open(TestServers.uri(proxy.connectString(), chroot,
                        SESSION, BLIP_CONNECTION));
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), chroot)) {
            long session = TestServers.backend(store).currentSession();
            if (releasedBefore) {
                store.lock("name").acquire().release();
                assertThat(TestServers.backend(store).emptiedParents().waitsFor("name", false))
                        .as("the next create goes on the plain handle").isTrue();
            }
            Lease held = holder.lock("name").acquire();
            String parent = ZooKeeperBackend.parentPath("name");
            String holders = raw.getChildren().forPath(parent).get(0);

            proxy.loseReplyOfNext(OpReplyCutter.CREATE2, true);
            Future<Optional<Lease>> waiting = pool.submit(() -> store.lock("name").tryAcquire(Duration.ofSeconds(20)));
            assertThat(proxy.cut().await(10, TimeUnit.SECONDS)).as("the create's reply was lost").isTrue();
            List<String> afterCut = raw.getChildren().forPath(parent);
            assertThat(afterCut).as("the lost create made its node").hasSize(2);
            String lost = afterCut.get(0).equals(holders) ? afterCut.get(1) : afterCut.get(0);
            proxy.restore();

            await("the lost create's node is deleted and the contender queued once").atMost(SESSION)
                    .untilAsserted(() -> assertThat(raw.getChildren().forPath(parent)).hasSize(2)
                            .contains(holders).doesNotContain(lost));
            held.release();
            Lease lease = waiting.get(30, TimeUnit.SECONDS).orElseThrow();
            assertThat(raw.getChildren().forPath(parent)).as("only the new holder's node").hasSize(1);
            assertThat(TestServers.backend(store).currentSession()).isEqualTo(session);
            lease.release();
        } finally {
            pool.shutdownNow();
        }
    }

    private static boolean mentions(Throwable e, String className) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            for (StackTraceElement frame : t.getStackTrace()) {
                if (frame.getClassName().contains(className)) {
                    return true;
                }
            }
        }
        return false;
    }
}
