package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockException;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.nio.charset.StandardCharsets;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A hostile review of the parent's create sent in the same burst as a fresh name's contender create (issue #33):
 * stores racing for the same fresh names while the server deletes emptied parents every millisecond, a parent made
 * under digest credentials and under a nested chroot, and the parent create's reply lost with the connection.
 */
class FreshParentAttackTest {

    private static final Duration SESSION = Duration.ofSeconds(6);
    private static final String SECRET = "fr3sh-Pa55";
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    /**
     * Two stores, two threads each, take 60 names each new to both stores at the same moment (each store's first
     * acquire of a name sends the parent's create, one of them answered NODEEXISTS) while the server deletes emptied
     * parents every millisecond: no two holders of a name at once, and every name's tokens grow in grant order.
     */
    @Test
    void storesRacingForFreshNamesNeverShareAGrantOrRepeatAToken() throws Exception {
        String rate = "znode.container.maxPerMinute";
        String rateBefore = System.getProperty(rate);
        System.setProperty(rate, Integer.toString(Integer.MAX_VALUE / 2));
        try (ChrootedServer zk = ChrootedServer.start("fresh-race", Duration.ofMillis(1));
                LockStore a = zk.open();
                LockStore b = zk.open()) {
            int names = 60;
            Map<String, AtomicInteger> holding = new ConcurrentHashMap<>();
            Map<String, List<Long>> tokens = new ConcurrentHashMap<>();
            List<String> overlaps = new ArrayList<>();
            List<Future<?>> runs = new ArrayList<>();
            for (LockStore store : List.of(a, b, a, b)) {
                runs.add(pool.submit(() -> {
                    for (int i = 0; i < names; i++) {
                        String name = "fresh-" + i;
                        Lease lease = i % 2 == 0 ? store.lock(name).acquire() : store.semaphore(name, 1).acquire();
                        if (holding.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet() != 1) {
                            synchronized (overlaps) {
                                overlaps.add(name);
                            }
                        }
                        tokens.computeIfAbsent(name, n -> new ArrayList<>()).add(lease.fencingToken());
                        holding.get(name).decrementAndGet();
                        lease.release();
                    }
                    return null;
                }));
            }
            for (Future<?> run : runs) {
                run.get(90, TimeUnit.SECONDS);
            }
            assertThat(overlaps).as("names held twice at once").isEmpty();
            tokens.forEach((name, granted) -> {
                assertThat(granted).as("grants of %s", name).hasSize(4);
                for (int i = 1; i < granted.size(); i++) {
                    assertThat(granted.get(i)).as("tokens of %s in grant order: %s", name, granted)
                            .isGreaterThan(granted.get(i - 1));
                }
            });
        } finally {
            if (rateBefore == null) {
                System.clearProperty(rate);
            } else {
                System.setProperty(rate, rateBefore);
            }
        }
    }

    /**
     * Z6's race on the new path: two stores that never remember a release (their emptied-parents list closed, as for
     * a name a store last released more than 2 s ago) take one name back to back while the server deletes the
     * emptied parent every millisecond, so every acquire sends the parent's create in its burst and may make a new
     * parent and stamp it within the millisecond in which the previous one was deleted. Tokens must keep growing.
     */
    @Test
    void tokensKeepGrowingWhenEveryAcquireMakesTheParentInItsBurst() throws Exception {
        String rate = "znode.container.maxPerMinute";
        String rateBefore = System.getProperty(rate);
        System.setProperty(rate, Integer.toString(Integer.MAX_VALUE / 2));
        try (ChrootedServer zk = ChrootedServer.start("fresh-cycles", Duration.ofMillis(1));
                LockStore a = zk.open();
                LockStore b = zk.open()) {
            TestServers.backend(a).emptiedParents().close();
            TestServers.backend(b).emptiedParents().close();
            List<Long> granted = new ArrayList<>(); // in grant order: appended while holding the lock
            long end = System.nanoTime() + Duration.ofSeconds(8).toNanos();
            List<Future<?>> runs = new ArrayList<>();
            for (LockStore store : List.of(a, b)) {
                runs.add(pool.submit(() -> {
                    while (System.nanoTime() - end < 0) {
                        Lease lease = store.lock("cycling").acquire();
                        synchronized (granted) {
                            granted.add(lease.fencingToken());
                        }
                        lease.release();
                    }
                    return null;
                }));
            }
            for (Future<?> run : runs) {
                run.get(60, TimeUnit.SECONDS);
            }
            List<String> backwards = new ArrayList<>();
            for (int i = 1; i < granted.size(); i++) {
                if (granted.get(i) <= granted.get(i - 1)) {
                    backwards.add("#" + i + ": " + granted.get(i - 1) + " then " + granted.get(i));
                }
            }
            System.out.println("FreshParentCycles: " + granted.size() + " grants, "
                    + granted.stream().filter(t -> t % 1000 == 1).count() + " of the form micros(ms)+1");
            assertThat(backwards).as("grants whose token was not larger than the one before, of %s", granted.size())
                    .isEmpty();
        } finally {
            if (rateBefore == null) {
                System.clearProperty(rate);
            } else {
                System.setProperty(rate, rateBefore);
            }
        }
    }

    /**
     * A digest-authenticated store's fresh parent gets the ACL Curator gave the root it made (creator only), so that
     * another store of the same user takes and clears the name, and a wrong password is refused.
     */
    @Test
    void aFreshParentUnderDigestCredentialsIsTheUsersAlone() throws Exception {
        try (TestingServer server = TestServers.server();
                LockStore alice = BackendStores.open(digestUri(server, "alice:" + SECRET));
                LockStore aliceAgain = BackendStores.open(digestUri(server, "alice:" + SECRET));
                LockStore mallory = BackendStores.open(digestUri(server, "alice:wrong"));
                CuratorFramework raw = aliceClient(server)) {
            alice.lock("first").acquire().release(); // the root, made through Curator
            String parent = "/fresh-acl" + ZooKeeperBackend.parentPath("fresh");
            Lease lease = alice.lock("fresh").acquire();
            List<ACL> rootAcl = raw.getACL().forPath("/fresh-acl" + ZooKeeperBackend.ROOT);
            assertThat(raw.getACL().forPath(parent)).as("the fresh parent's ACL").isEqualTo(rootAcl);
            assertThat(rootAcl).singleElement().satisfies(acl -> assertThat(acl.getId().getScheme())
                    .isEqualTo("digest"));
            assertThatThrownBy(() -> mallory.lock("fresh").tryAcquire()).isInstanceOf(LockException.class);
            lease.release();
            Lease again = aliceAgain.lock("fresh").tryAcquire().orElseThrow();
            assertThat(again.fencingToken()).isGreaterThan(lease.fencingToken());
            again.release();
            await("the same user's store deletes the emptied parent").atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(TestServers.backend(aliceAgain).emptiedParents().pending())
                            .isZero());
        }
    }

    /** Under a nested chroot the fresh parent is made inside it, where Curator's namespace puts the name. */
    @Test
    void aFreshParentUnderANestedChrootIsMadeInsideIt() throws Exception {
        try (TestingServer server = TestServers.server();
                LockStore store = BackendStores.open(TestServers.uri(server.getConnectString(), "deep/er/chroot",
                        SESSION, SESSION));
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "")) {
            store.lock("first").acquire().release();
            Lease lease = store.lock("fresh").acquire();
            Stat stat = raw.checkExists().forPath("/deep/er/chroot" + ZooKeeperBackend.parentPath("fresh"));
            assertThat(stat).as("the parent under the chroot").isNotNull();
            assertThat(stat.getEphemeralOwner()).as("a container, not an ephemeral").isZero();
            assertThat(raw.checkExists().forPath(ZooKeeperBackend.parentPath("fresh"))).isNull();
            assertThat(raw.checkExists().forPath("/deep" + ZooKeeperBackend.parentPath("fresh"))).isNull();
            lease.release();
        }
    }

    /**
     * An operator deletes the store's whole chroot while nothing is held: the burst's parent create and node create
     * find no ancestor, Curator makes the path again, and the name's next token is still larger than its last.
     */
    @Test
    void aDeletedChrootIsMadeAgainAndTokensKeepGrowing() throws Exception {
        try (TestingServer server = TestServers.server();
                LockStore store = BackendStores.open(TestServers.uri(server.getConnectString(), "gone/chroot",
                        SESSION, SESSION));
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "")) {
            Lease first = store.lock("name").acquire();
            first.release();
            raw.delete().deletingChildrenIfNeeded().forPath("/gone");
            Lease fresh = store.lock("fresh").acquire();
            assertThat(raw.checkExists().forPath("/gone/chroot" + ZooKeeperBackend.parentPath("fresh"))).isNotNull();
            fresh.release();
            await("the first name's release is forgotten, so its next acquire sends the parent's create")
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> !TestServers.backend(store).emptiedParents().waitsFor("name", false));
            Lease again = store.lock("name").acquire();
            assertThat(again.fencingToken()).isGreaterThan(first.fencingToken());
            again.release();
        }
    }

    /**
     * The reply of a fresh name's parent create is lost (applied, the connection dropped with the node's create sent
     * behind it): once back, the store holds the name once, another store gets it after the release with a larger
     * token, and no node of ours is left behind.
     */
    @Test
    void aLostParentCreateReplyLeavesOneGrantAndNoOrphan() throws Exception {
        Duration blip = Duration.ofSeconds(4);
        try (TestingServer server = TestServers.server();
                OpReplyCutter proxy = new OpReplyCutter(server.getPort());
                LockStore store = BackendStores.open(TestServers.uri(proxy.connectString(), "fresh-lost", SESSION,
                        blip));
                LockStore other = BackendStores.open(TestServers.uri(server.getConnectString(), "fresh-lost",
                        SESSION, blip));
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "fresh-lost")) {
            store.lock("first").acquire().release();
            String parent = ZooKeeperBackend.parentPath("fresh");
            proxy.loseReplyOfNext(19, true); // createContainer
            Future<Optional<Lease>> ours = pool.submit(() -> store.lock("fresh").tryAcquire(Duration.ofSeconds(25)));
            assertThat(proxy.cut().await(10, TimeUnit.SECONDS)).as("the parent create's reply was lost").isTrue();
            proxy.restore();
            Lease lease = ours.get(20, TimeUnit.SECONDS).orElseThrow();
            assertThat(other.lock("fresh").tryAcquire()).as("held by us").isEmpty();
            await("one node of ours under the parent").atMost(Duration.ofSeconds(15))
                    .untilAsserted(() -> assertThat(raw.getChildren().forPath(parent)).hasSize(1));
            lease.release();
            Lease next = other.lock("fresh").tryAcquire(Duration.ofSeconds(10)).orElseThrow();
            assertThat(next.fencingToken()).isGreaterThan(lease.fencingToken());
            assertThat(raw.getChildren().forPath(parent)).hasSize(1);
            next.release();
        }
    }

    /** A plain Curator client authenticated as alice (reading an ACL takes READ or ADMIN rights). */
    private static CuratorFramework aliceClient(TestingServer server) throws InterruptedException {
        CuratorFramework client = CuratorFrameworkFactory.builder().connectString(server.getConnectString())
                .sessionTimeoutMs(10_000).connectionTimeoutMs(10_000).retryPolicy(new RetryOneTime(200))
                .authorization("digest", ("alice:" + SECRET).getBytes(StandardCharsets.UTF_8)).build();
        client.start();
        assertThat(client.blockUntilConnected(20, TimeUnit.SECONDS)).isTrue();
        return client;
    }

    private static String digestUri(TestingServer server, String userInfo) {
        return "zookeeper://" + userInfo + "@" + server.getConnectString() + "/fresh-acl"
                + "?sessionTimeout=6s&connectionTimeout=5s";
    }
}
