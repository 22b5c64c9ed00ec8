package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.ACL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Review of the create sent on the plain ZooKeeper handle for a name the store released within the last 2 s (issue
 * 33): its node's ACL is the one a Curator create gives, a parent deleted within those 2 s falls back cleanly, and a
 * plain create the server does not answer (held by a proxy) ends the acquire in time whether it runs out, is
 * interrupted or is cut by close, with no node left once the server reads again.
 */
class PlainCreateReviewTest {

    private static final Duration SESSION = Duration.ofSeconds(30);
    private static final Duration CONNECTION = Duration.ofSeconds(2);
    private static final String SECRET = "pl41n-Secret";

    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stopPool() {
        pool.shutdownNow();
    }

    /** A node made on the plain handle has the ACL of one made through Curator; no other client can delete it. */
    @Test
    void aPlainCreateUnderDigestCredentialsGivesItsNodeTheAclOfACuratorCreate() throws Exception {
        try (TestingServer server = TestServers.server();
                LockStore store = BackendStores.open("zookeeper://alice:" + SECRET + "@" + server.getConnectString()
                        + "/plain/acl?sessionTimeout=30s&connectionTimeout=2s");
                CuratorFramework alice = authenticated(server.getConnectString(), "plain/acl", "alice:" + SECRET);
                CuratorFramework stranger = TestServers.rawClient(server.getConnectString(), "plain/acl")) {
            String parent = ZooKeeperBackend.parentPath("name");
            assertThat(TestServers.backend(store).emptiedParents().waitsFor("name", false)).isFalse();
            Lease first = store.lock("name").acquire(); // through Curator: the parent is not known to be there
            List<ACL> throughCurator = alice.getACL().forPath(parent + "/" + onlyChild(alice, parent));
            first.release();
            assertThat(TestServers.backend(store).emptiedParents().waitsFor("name", false))
                    .as("the next create goes on the plain handle").isTrue();
            Lease second = store.lock("name").acquire();
            String node = parent + "/" + onlyChild(alice, parent);
            assertThat(alice.getACL().forPath(node)).as("the plain create's ACL").isEqualTo(throughCurator);
            assertThatThrownBy(() -> stranger.delete().forPath(node)).as("a delete without the credentials")
                    .isInstanceOf(KeeperException.NoAuthException.class);
            assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
            second.release();
        }
    }

    /** An operator deletes the parent right after the release: the plain create finds none, Curator makes both. */
    @Test
    void aParentDeletedWithinTheTwoSecondsFallsBackToCuratorAndLeavesOneNode() throws Exception {
        try (TestingServer server = TestServers.server();
                LockStore store = BackendStores.open(TestServers.uri(server.getConnectString(), "plain-gone",
                        SESSION, CONNECTION));
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "plain-gone")) {
            String parent = ZooKeeperBackend.parentPath("name");
            Lease first = store.lock("name").acquire();
            first.release();
            assertThat(TestServers.backend(store).emptiedParents().waitsFor("name", false)).isTrue();
            raw.delete().forPath(parent);
            Lease second = store.lock("name").tryAcquire(Duration.ofSeconds(5)).orElseThrow();
            assertThat(raw.getChildren().forPath(parent)).as("nodes under the remade parent").hasSize(1);
            assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
            second.release();
        }
    }

    /** A plain create the server does not read: the acquire ends within its bound; the node made later goes. */
    @Test
    void aPlainCreateTheServerDoesNotAnswerEndsTheAcquireInTimeAndItsLateNodeGoes() throws Exception {
        try (TestingServer server = TestServers.server();
                OpReplyCutter proxy = new OpReplyCutter(server.getPort());
                LockStore store = BackendStores.open(TestServers.uri(proxy.connectString(), "plain-held",
                        SESSION, CONNECTION));
                LockStore other = BackendStores.open(TestServers.uri(server.getConnectString(), "plain-held",
                        SESSION, CONNECTION));
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "plain-held")) {
            String parent = ZooKeeperBackend.parentPath("name");
            store.lock("name").acquire().release();
            assertThat(TestServers.backend(store).emptiedParents().waitsFor("name", false))
                    .as("the next create goes on the plain handle").isTrue();
            proxy.holdNext(OpReplyCutter.CREATE2);
            long start = System.nanoTime();
            Future<Optional<Lease>> acquiring = pool.submit(() -> store.lock("name").tryAcquire(Duration.ofSeconds(1)));
            assertThat(proxy.held().await(10, TimeUnit.SECONDS)).as("the create is held").isTrue();
            Throwable failure = null;
            try {
                assertThat(acquiring.get(CONNECTION.toMillis() * 3, TimeUnit.MILLISECONDS)).isEmpty();
            } catch (ExecutionException e) {
                failure = e.getCause();
            }
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(tookMs).as("acquire with the create unanswered").isLessThan(1000 + CONNECTION.toMillis() + 500);
            if (failure != null) {
                assertThat(failure).isInstanceOf(io.distlock.StoreUnavailableException.class);
            }
            proxy.resume();
            await("the late node is deleted").atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(children(raw, parent)).isEmpty());
            other.lock("name").tryAcquire(Duration.ofSeconds(5)).orElseThrow().release();
        }
    }

    /** The same create, its wait interrupted: InterruptedException at once, and the node made later goes. */
    @Test
    void anInterruptedPlainCreateLeavesNoNodeOnceTheServerAnswers() throws Exception {
        try (TestingServer server = TestServers.server();
                OpReplyCutter proxy = new OpReplyCutter(server.getPort());
                LockStore store = BackendStores.open(TestServers.uri(proxy.connectString(), "plain-intr",
                        SESSION, CONNECTION));
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "plain-intr")) {
            String parent = ZooKeeperBackend.parentPath("name");
            store.lock("name").acquire().release();
            assertThat(TestServers.backend(store).emptiedParents().waitsFor("name", false))
                    .as("the next create goes on the plain handle").isTrue();
            proxy.holdNext(OpReplyCutter.CREATE2);
            Future<Optional<Lease>> acquiring = pool.submit(() -> store.lock("name").tryAcquire(Duration.ofSeconds(20)));
            assertThat(proxy.held().await(10, TimeUnit.SECONDS)).as("the create is held").isTrue();
            acquiring.cancel(true);
            proxy.resume();
            await("the late node is deleted while the session lives").atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(children(raw, parent)).isEmpty());
            Lease again = store.lock("name").tryAcquire(Duration.ofSeconds(5)).orElseThrow();
            assertThat(children(raw, parent)).hasSize(1);
            again.release();
        }
    }

    /** The same create cut by the store's close: close ends it promptly, and no node outlives the store. */
    @Test
    void closingTheStoreDuringAPlainCreateLeavesNoNode() throws Exception {
        try (TestingServer server = TestServers.server();
                OpReplyCutter proxy = new OpReplyCutter(server.getPort());
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "plain-close")) {
            LockStore store = BackendStores.open(TestServers.uri(proxy.connectString(), "plain-close", SESSION,
                    CONNECTION));
            String parent = ZooKeeperBackend.parentPath("name");
            store.lock("name").acquire().release();
            assertThat(TestServers.backend(store).emptiedParents().waitsFor("name", false))
                    .as("the next create goes on the plain handle").isTrue();
            proxy.holdNext(OpReplyCutter.CREATE2);
            Future<Optional<Lease>> acquiring = pool.submit(() -> store.lock("name").tryAcquire(Duration.ofSeconds(20)));
            assertThat(proxy.held().await(10, TimeUnit.SECONDS)).as("the create is held").isTrue();
            long start = System.nanoTime();
            Future<?> closing = pool.submit(store::close);
            try {
                acquiring.get(CONNECTION.toMillis() * 3, TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                // ended by close
            }
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).as("acquire ended by close")
                    .isLessThan(CONNECTION.toMillis() * 3);
            proxy.resume();
            closing.get(SESSION.toMillis(), TimeUnit.MILLISECONDS);
            await("no node of the closed store").atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(children(raw, parent)).isEmpty());
        }
    }

    /**
     * A plain create whose reply is lost (applied, connection dropped and kept down) while another store queues behind
     * the node it made: once the connection is back, Curator's create queues us behind that store, so the contender
     * behind our lost node is another store's, which cannot tell it is unused. The sweep after the reconnect must
     * delete it, or the name is held by nobody alive for as long as our session lives.
     */
    @Test
    void aLostPlainCreateNodeWithAnotherStoreBehindItIsSweptAndEveryoneGetsTheLock() throws Exception {
        Duration blip = Duration.ofSeconds(4);
        try (TestingServer server = TestServers.server();
                OpReplyCutter proxy = new OpReplyCutter(server.getPort());
                LockStore holder = BackendStores.open(TestServers.uri(server.getConnectString(), "plain-mid",
                        SESSION, blip));
                LockStore between = BackendStores.open(TestServers.uri(server.getConnectString(), "plain-mid",
                        SESSION, blip));
                LockStore store = BackendStores.open(TestServers.uri(proxy.connectString(), "plain-mid",
                        SESSION, blip));
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "plain-mid")) {
            String parent = ZooKeeperBackend.parentPath("name");
            store.lock("name").acquire().release();
            assertThat(TestServers.backend(store).emptiedParents().waitsFor("name", false))
                    .as("the next create goes on the plain handle").isTrue();
            Lease held = holder.lock("name").acquire();
            String holders = onlyChild(raw, parent);
            proxy.loseReplyOfNext(OpReplyCutter.CREATE2, true);
            Future<Optional<Lease>> ours = pool.submit(() -> store.lock("name").tryAcquire(Duration.ofSeconds(25)));
            assertThat(proxy.cut().await(10, TimeUnit.SECONDS)).as("the create's reply was lost").isTrue();
            List<String> afterCut = children(raw, parent);
            assertThat(afterCut).as("the lost create made its node").hasSize(2);
            String lost = afterCut.get(0).equals(holders) ? afterCut.get(1) : afterCut.get(0);
            Future<Optional<Lease>> middle = pool.submit(() -> between.lock("name").tryAcquire(Duration.ofSeconds(25)));
            await("the other store queued behind our lost node").atMost(Duration.ofSeconds(5))
                    .untilAsserted(() -> assertThat(children(raw, parent)).hasSize(3));
            proxy.restore();
            await("our lost node is swept: the holder, the other store and our node from Curator's create")
                    .atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(children(raw, parent)).hasSize(3)
                            .contains(holders).doesNotContain(lost));
            held.release();
            Lease second = middle.get(10, TimeUnit.SECONDS).orElseThrow();
            assertThat(ours.isDone()).as("we queued behind the other store").isFalse();
            second.release();
            Lease third = ours.get(10, TimeUnit.SECONDS).orElseThrow();
            assertThat(third.fencingToken()).isGreaterThan(second.fencingToken());
            assertThat(children(raw, parent)).hasSize(1);
            third.release();
        }
    }

    /**
     * The session ends (another handle joins and closes it) while the plain create is held unanswered: the create
     * fails with the old session, Curator's create makes our node in the new one, and no node of the old one is
     * left.
     */
    @Test
    void aSessionEndingDuringAPlainCreateQueuesUsOnceInTheNewSession() throws Exception {
        Duration blip = Duration.ofSeconds(4);
        try (TestingServer server = TestServers.server();
                OpReplyCutter proxy = new OpReplyCutter(server.getPort());
                LockStore store = BackendStores.open(TestServers.uri(proxy.connectString(), "plain-expiry",
                        SESSION, blip));
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "plain-expiry")) {
            String parent = ZooKeeperBackend.parentPath("name");
            ZooKeeperBackend backend = TestServers.backend(store);
            Lease first = store.lock("name").acquire();
            long oldSession = backend.currentSession();
            first.release();
            assertThat(backend.emptiedParents().waitsFor("name", false)).isTrue();
            proxy.holdNext(OpReplyCutter.CREATE2);
            Future<Optional<Lease>> acquiring = pool.submit(() -> store.lock("name").tryAcquire(Duration.ofSeconds(20)));
            assertThat(proxy.held().await(10, TimeUnit.SECONDS)).as("the create is held").isTrue();
            Sessions.expire(backend.curator(), server.getConnectString());
            proxy.resume();
            Lease lease = acquiring.get(30, TimeUnit.SECONDS).orElseThrow();
            assertThat(backend.currentSession()).as("a new session").isNotEqualTo(oldSession);
            List<String> nodes = children(raw, parent);
            assertThat(nodes).as("our node only").hasSize(1);
            assertThat(raw.checkExists().forPath(parent + "/" + nodes.get(0)).getEphemeralOwner())
                    .isEqualTo(backend.currentSession());
            assertThat(lease.fencingToken()).isGreaterThan(first.fencingToken());
            lease.release();
        }
    }

    /**
     * The lost reply of a semaphore's plain create (applied, connection kept down): once back, our permit node from
     * Curator's create is the only one of ours, the lost one is gone, and we get the permit at the holder's release.
     */
    @Test
    void aLostPlainCreateOfAPermitLeavesNoSecondPermitNodeOfOurs() throws Exception {
        Duration blip = Duration.ofSeconds(4);
        try (TestingServer server = TestServers.server();
                OpReplyCutter proxy = new OpReplyCutter(server.getPort());
                LockStore holder = BackendStores.open(TestServers.uri(server.getConnectString(), "plain-permit",
                        SESSION, blip));
                LockStore store = BackendStores.open(TestServers.uri(proxy.connectString(), "plain-permit",
                        SESSION, blip));
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "plain-permit")) {
            String parent = ZooKeeperPermits.parentPath("s");
            store.semaphore("s", 1).acquire().release();
            assertThat(TestServers.backend(store).emptiedParents().waitsFor("s", true))
                    .as("the next create goes on the plain handle").isTrue();
            Lease held = holder.semaphore("s", 1).acquire();
            String holders = onlyChild(raw, parent);
            proxy.loseReplyOfNext(OpReplyCutter.CREATE2, true);
            Future<Optional<Lease>> ours = pool.submit(() -> store.semaphore("s", 1).tryAcquire(Duration.ofSeconds(20)));
            assertThat(proxy.cut().await(10, TimeUnit.SECONDS)).as("the create's reply was lost").isTrue();
            List<String> afterCut = children(raw, parent);
            assertThat(afterCut).as("the lost create made its node").hasSize(2);
            String lost = afterCut.get(0).equals(holders) ? afterCut.get(1) : afterCut.get(0);
            proxy.restore();
            await("the lost node is deleted and we wait with one node").atMost(Duration.ofSeconds(15))
                    .untilAsserted(() -> assertThat(children(raw, parent)).hasSize(2).contains(holders)
                            .doesNotContain(lost));
            held.release();
            Lease lease = ours.get(10, TimeUnit.SECONDS).orElseThrow();
            assertThat(lease.fencingToken()).isGreaterThan(held.fencingToken());
            assertThat(children(raw, parent)).hasSize(1);
            lease.release();
        }
    }

    private static List<String> children(CuratorFramework raw, String parent) throws Exception {
        try {
            return raw.getChildren().forPath(parent);
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        }
    }

    private static String onlyChild(CuratorFramework client, String parent) throws Exception {
        List<String> children = client.getChildren().forPath(parent);
        assertThat(children).hasSize(1);
        return children.get(0);
    }

    private static CuratorFramework authenticated(String connectString, String chroot, String userPassword)
            throws InterruptedException {
        CuratorFramework client = CuratorFrameworkFactory.builder().connectString(connectString)
                .sessionTimeoutMs(10_000).connectionTimeoutMs(10_000).retryPolicy(new RetryOneTime(200))
                .namespace(chroot).ensembleTracker(false)
                .authorization("digest", userPassword.getBytes(StandardCharsets.UTF_8)).build();
        client.start();
        if (!client.blockUntilConnected(20, TimeUnit.SECONDS)) {
            client.close();
            throw new IllegalStateException("could not connect to " + connectString);
        }
        return client;
    }
}
