package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LeaseState;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Curator posts SUSPENDED also when a background operation's retries run out ("Background operation retry gave up":
 * {@code CuratorFrameworkImpl.checkBackgroundRetry} hands a CONNECTIONLOSS to {@code validateConnection}), on its
 * background thread, which read the connection as down a moment before. If the connection came back in that moment,
 * the SUSPENDED is posted after the RECONNECTED while the ZooKeeper handle stays connected, and no RECONNECTED follows
 * (nothing drops again); Curator 5.9.0 repairs that race only for LOST (CURATOR-525), and once SUSPENDED has lasted
 * the session timeout it ends its own healthy session ({@code ConnectionStateManager.checkSessionExpiration}). The
 * store must turn its leases back to HELD, after checking their nodes, and keep its session.
 *
 * <p>The race is held open as a descheduled background thread would hold it: a background operation of the test's,
 * sent during an outage, has a callback that Curator runs on that thread when the retries give up, just before it
 * posts SUSPENDED; the callback returns only once the server is back and the store reported its leases HELD again.
 */
class SuspendedWhileConnectedTest {

    /** Long enough that the outage cannot end the session; Curator would end it this long after SUSPENDED. */
    private static final Duration SESSION = Duration.ofSeconds(8);
    /** Curator's retries give up (RetryUntilElapsed) this long after a background operation began. */
    private static final Duration CONNECTION = Duration.ofSeconds(1);
    private static final Duration PROMPTLY = Duration.ofSeconds(5);

    private TestingServer server;
    private LockStore store;

    @BeforeEach
    void start() throws Exception {
        server = TestServers.server();
        store = BackendStores.open(TestServers.uri(server.getConnectString(), "suspended", SESSION, CONNECTION));
    }

    @AfterEach
    void stop() throws Exception {
        store.close();
        server.close();
    }

    @Test
    void aSuspendedPostedWhileTheConnectionIsUpTurnsBackToHeldAndKeepsTheSession() throws Exception {
        CuratorFramework curator = TestServers.backend(store).curator();
        BlockingQueue<ConnectionState> states = new LinkedBlockingQueue<>();
        curator.getConnectionStateListenable().addListener((client, state) -> states.add(state));
        Queue<String> lost = new ConcurrentLinkedQueue<>();
        Lease held = store.lock("held").acquire();
        held.onLost(e -> lost.add("held: " + e.getMessage()));
        long session = TestServers.backend(store).currentSession();

        suspendAfterTheReconnect(states, held, () -> { });
        long suspendedAt = System.nanoTime();

        // acquired while Curator says SUSPENDED: granted from a node of the live session, registered UNCERTAIN
        Lease during = store.lock("during").acquire();
        during.onLost(e -> lost.add("during: " + e.getMessage()));

        await("both leases HELD again within " + PROMPTLY + " of a SUSPENDED with the connection up (held "
                + held.state() + ", during " + during.state() + ", Curator's states since " + states + ")")
                .atMost(PROMPTLY).until(() -> held.isValid() && during.isValid());
        // through Curator's RECONNECTED, whose handling checks every held node before its lease is HELD again
        assertThat(states.poll()).as("Curator's state when the leases are HELD again").isEqualTo(
                ConnectionState.RECONNECTED);

        // past the point where Curator would have ended the session for a SUSPENDED that lasted it
        Duration pastSession = SESSION.plusSeconds(1).minusNanos(System.nanoTime() - suspendedAt);
        await("leases held and the session kept past the session timeout").during(pastSession)
                .atMost(pastSession.plus(PROMPTLY))
                .until(() -> held.isValid() && during.isValid() && lost.isEmpty()
                        && TestServers.backend(store).currentSession() == session);
        assertThat(lost).as("leases reported lost").isEmpty();
        assertThat(List.copyOf(states)).as("Curator's states after the give-up's SUSPENDED")
                .doesNotContain(ConnectionState.LOST);
        held.release();
        during.release();
        CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "suspended");
        try {
            assertThat(raw.getChildren().forPath("/")).as("what the store left next to its lock roots")
                    .noneMatch(child -> child.startsWith("distlock-nudge-"));
        } finally {
            raw.close();
        }
    }

    /**
     * The session ends on the server while the give-up's SUSPENDED stands with the handle connected (the nudge due,
     * or under way): the lease is reported lost and never turns HELD again on the way, whatever the nudge brings.
     */
    @Test
    void aSessionEndingWhileTheNudgeIsDueIsReportedLostNeverHeldAgain() throws Exception {
        CuratorFramework curator = TestServers.backend(store).curator();
        BlockingQueue<ConnectionState> states = new LinkedBlockingQueue<>();
        curator.getConnectionStateListenable().addListener((client, state) -> states.add(state));
        Lease held = store.lock("held").acquire();
        CompletableFuture<String> lost = new CompletableFuture<>();
        held.onLost(e -> lost.complete(e.getMessage()));
        long session = TestServers.backend(store).currentSession();

        suspendAfterTheReconnect(states, held, () -> { });
        Sessions.expire(curator, server.getConnectString());

        List<LeaseState> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        await("the lease LOST after its session ended (states seen " + seen + ", Curator's " + states + ")")
                .pollInterval(Duration.ofMillis(5)).atMost(SESSION.plus(PROMPTLY))
                .until(() -> {
                    LeaseState now = held.state();
                    if (seen.isEmpty() || seen.get(seen.size() - 1) != now) {
                        seen.add(now);
                    }
                    return now == LeaseState.LOST;
                });
        assertThat(seen).as("the lease's states after its session ended").doesNotContain(LeaseState.HELD);
        assertThat(lost.getNow("not reported")).as("its loss").isNotEqualTo("not reported");
        assertThat(TestServers.backend(store).currentSession()).as("a new session").isNotEqualTo(session);
        assertThat(store.lock("held").tryAcquire()).as("the name free again in the new session").isPresent();
    }

    /**
     * An operator who lets the store's user write only under the lock roots (the chroot itself read-only, the roots
     * made for the store, as a hardened ZooKeeper "/" without a chroot): the store needed no write outside its roots
     * before the nudge, so the nudge must not need one either.
     */
    @Test
    void aChrootTheStoreMayOnlyReadStillTurnsBackToHeld() throws Exception {
        CuratorFramework admin = TestServers.rawClient(server.getConnectString(), null);
        try {
            admin.create().forPath("/readonly");
            admin.create().forPath("/readonly" + ZooKeeperBackend.ROOT);
            admin.create().forPath("/readonly" + ZooKeeperPermits.ROOT);
            admin.setACL().withACL(org.apache.zookeeper.ZooDefs.Ids.READ_ACL_UNSAFE).forPath("/readonly");
        } finally {
            admin.close();
        }
        store.close();
        store = BackendStores.open(TestServers.uri(server.getConnectString(), "readonly", SESSION, CONNECTION));
        CuratorFramework curator = TestServers.backend(store).curator();
        BlockingQueue<ConnectionState> states = new LinkedBlockingQueue<>();
        curator.getConnectionStateListenable().addListener((client, state) -> states.add(state));
        Lease held = store.lock("held").acquire();

        suspendAfterTheReconnect(states, held, () -> { });

        await("the lease HELD again within " + PROMPTLY + " of a SUSPENDED with the connection up (held "
                + held.state() + ", Curator's states since " + states + ")")
                .atMost(PROMPTLY).until(held::isValid);
        held.release();
    }

    /**
     * The nudge makes nothing certain by itself: a lease whose node went while nobody watched it (the sweep held
     * off, the node deleted by another client after the reconnect's check) is reported lost by the check that the
     * RECONNECTED it brings runs, not made HELD again with the others.
     */
    @Test
    void aLeaseWhoseNodeWentUnwatchedIsReportedLostNotHeldAgain() throws Exception {
        ZooKeeperBackend backend = TestServers.backend(store);
        CuratorFramework curator = backend.curator();
        BlockingQueue<ConnectionState> states = new LinkedBlockingQueue<>();
        curator.getConnectionStateListenable().addListener((client, state) -> states.add(state));
        backend.heldNodes().sweeping = false; // no watch on a new lease's node: only a check finds it gone
        Lease held = store.lock("held").acquire();
        CompletableFuture<String> goneLost = new CompletableFuture<>();
        Lease[] gone = new Lease[1];
        CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "suspended");
        try {
            suspendAfterTheReconnect(states, held, () -> {
                // taken after the reconnect's check, its node deleted behind its back before the give-up's SUSPENDED
                gone[0] = store.lock("gone").acquire();
                gone[0].onLost(e -> goneLost.complete(e.getMessage()));
                String parent = ZooKeeperBackend.parentPath("gone");
                for (String child : raw.getChildren().forPath(parent)) {
                    raw.delete().forPath(parent + "/" + child);
                }
                assertThat(gone[0].isValid()).as("the lease whose node is gone, unwatched, before the SUSPENDED")
                        .isTrue();
            });
        } finally {
            raw.close();
        }

        await("the lease whose node went certain again").atMost(PROMPTLY)
                .until(() -> gone[0].state() != LeaseState.UNCERTAIN);
        assertThat(gone[0].state()).as("the lease whose node went, once certain again (HELD: a lease without its "
                + "node)").isEqualTo(LeaseState.LOST);
        assertThat(goneLost.getNow("not reported")).as("its loss").contains("gone when the connection came back");
        await("the other lease HELD again").atMost(PROMPTLY).until(held::isValid);
        held.release();
    }

    /**
     * Stops the server, holds a background operation's give-up (Curator's thread, just before it posts SUSPENDED)
     * until the server is back and {@code held} is HELD again, runs {@code whileBack}, then lets the give-up post its
     * SUSPENDED; returns once the store has turned {@code held} UNCERTAIN for it, the handle still connected.
     */
    private void suspendAfterTheReconnect(BlockingQueue<ConnectionState> states, Lease held, ThrowingRunnable whileBack)
            throws Exception {
        CuratorFramework curator = TestServers.backend(store).curator();
        server.stop();
        assertThat(states.poll(SESSION.toMillis(), TimeUnit.MILLISECONDS)).as("the outage").isEqualTo(
                ConnectionState.SUSPENDED);
        await("the lease uncertain in the outage").atMost(PROMPTLY).until(() -> !held.isValid());

        CountDownLatch gaveUp = new CountDownLatch(1);
        CountDownLatch resume = new CountDownLatch(1);
        curator.checkExists().inBackground((client, event) -> {
            gaveUp.countDown(); // Curator's background thread, retries spent: SUSPENDED follows once this returns
            resume.await(PROMPTLY.multipliedBy(3).toMillis(), TimeUnit.MILLISECONDS);
        }).forPath("/given-up");
        assertThat(gaveUp.await(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS)).as("the retries given up").isTrue();

        server.restart();
        assertThat(states.poll(SESSION.toMillis(), TimeUnit.MILLISECONDS)).as("back").isEqualTo(
                ConnectionState.RECONNECTED);
        await("the lease HELD after the reconnect").atMost(PROMPTLY).until(held::isValid);
        try {
            whileBack.run();
        } finally {
            resume.countDown();
        }
        assertThat(states.poll(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS)).as("the give-up's state").isEqualTo(
                ConnectionState.SUSPENDED);
        assertThat(curator.getZookeeperClient().isConnected()).as("the handle connected after SUSPENDED").isTrue();
        await("the lease uncertain after the give-up's SUSPENDED").atMost(PROMPTLY)
                .until(() -> held.state() == LeaseState.UNCERTAIN);
    }

    /** A step of the test that may throw. */
    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
