package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.DistributedSemaphore;
import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import io.distlock.tck.fixture.BackendStores;
import java.util.Optional;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.ClientSessions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Review r7 attacks on the fence read pipelined behind the listing (r7-zkrt): the read is answered, then the parent's
 * fence moves (another grant's stamp, an operator's write, a server restart), and only then does the contender stamp.
 * The versioned write must refuse the stale read, so the token granted exceeds whatever the parent held when it was
 * written. The backend's stamp hook holds the contender after its listing and read; a request of its own session
 * (ordered behind the pipelined read on the server) proves the read was answered before the parent moved.
 */
class PipelinedFenceAttackTest {

    private static final Duration SESSION = Duration.ofSeconds(6);
    /** Far ahead of the server clock in microseconds (about 11.6 days), so the clock floor cannot hide a stale read. */
    private static final long AHEAD = 1_000_000_000_000L;
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void shutdown() {
        pool.shutdownNow();
    }

    private static LockStore open(TestingServer server, String chroot) {
        return BackendStores.open(TestServers.uri(server.getConnectString(), chroot, SESSION, Duration.ofSeconds(4)));
    }

    /** Runs {@code act} at the first stamp of {@code store}, after a request of its session passed its fence read. */
    private static void atFirstStamp(LockStore store, String parent, Act act) {
        ZooKeeperBackend backend = TestServers.backend(store);
        assertThat(backend.listBehindCreate).as("the fence read is pipelined behind the listing").isTrue();
        AtomicBoolean first = new AtomicBoolean(true);
        backend.beforeStampHook = () -> {
            if (first.compareAndSet(true, false)) {
                try {
                    backend.curator().checkExists().forPath(parent); // behind the pipelined read on the server
                    act.run();
                } catch (Exception e) {
                    throw new IllegalStateException("the attack at the stamp failed", e);
                }
            }
        };
    }

    /** An operator's (or a stale fork's) larger fence written after our read: the stamp must go past it. */
    private static long bump(CuratorFramework raw, String parent) throws Exception {
        long value = System.currentTimeMillis() * 1000 + AHEAD;
        raw.setData().forPath(parent, FenceFloor.encode(value));
        return value;
    }

    @Test
    void aLockStampAfterItsPipelinedReadWasOvertakenGoesPastTheNewerFence() throws Exception {
        try (TestingServer server = TestServers.server(); LockStore store = open(server, "pipe-lock");
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "pipe-lock")) {
            store.lock("x").acquire().release(); // the parent exists (a CONTAINER: held open by our next node)
            String parent = ZooKeeperBackend.parentPath("x");
            AtomicLong bumped = new AtomicLong();
            atFirstStamp(store, parent, () -> bumped.set(bump(raw, parent)));
            try (Lease lease = store.lock("x").acquire()) {
                assertThat(bumped.get()).as("the attack ran").isPositive();
                assertThat(lease.fencingToken()).as("the token after a fence of %d written behind our read",
                        bumped.get()).isGreaterThan(bumped.get());
            }
        }
    }

    /**
     * The waiter queued right behind the stamped holder, so it stamps in the burst of the listing it makes when the
     * holder goes, at the fence it read while waiting ({@link StampAhead}); the hook runs before that burst, and the
     * fence written there makes that stamp fail on the parent's version and read again.
     */
    @Test
    void aWokenWaitersStampAfterItsPipelinedReadWasOvertakenGoesPastTheNewerFence() throws Exception {
        try (TestingServer server = TestServers.server(); LockStore holder = open(server, "pipe-woken");
                LockStore waiter = open(server, "pipe-woken");
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "pipe-woken")) {
            String parent = ZooKeeperBackend.parentPath("x");
            Lease held = holder.lock("x").acquire();
            AtomicLong bumped = new AtomicLong();
            atFirstStamp(waiter, parent, () -> bumped.set(bump(raw, parent)));
            CountDownLatch queued = new CountDownLatch(1);
            Future<Long> woken = pool.submit(() -> {
                queued.countDown();
                try (Lease lease = waiter.lock("x").tryAcquire(Duration.ofSeconds(20)).orElseThrow()) {
                    return lease.fencingToken();
                }
            });
            assertThat(queued.await(10, TimeUnit.SECONDS)).isTrue();
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> raw.getChildren().forPath(parent).size() == 2); // the waiter queued behind
            long first = held.fencingToken();
            held.release();
            long token = woken.get(20, TimeUnit.SECONDS);
            assertThat(bumped.get()).as("the attack ran at the woken waiter's stamp").isPositive();
            assertThat(token).as("the woken waiter's token after %d and a fence of %d written behind its read", first,
                    bumped.get()).isGreaterThan(bumped.get());
        }
    }

    @Test
    void aPermitStampAfterAnotherHoldersStampOvertookItsPipelinedReadGetsALargerToken() throws Exception {
        try (TestingServer server = TestServers.server(); LockStore a = open(server, "pipe-permit");
                LockStore b = open(server, "pipe-permit")) {
            DistributedSemaphore ofA = a.semaphore("s", 2);
            DistributedSemaphore ofB = b.semaphore("s", 2);
            ofA.acquire().release(); // the parent exists
            AtomicLong other = new AtomicLong();
            Lease[] bLease = new Lease[1];
            atFirstStamp(a, ZooKeeperPermits.parentPath("s"), () -> {
                // the other permit, stamped behind A's read
                bLease[0] = ofB.tryAcquire(Duration.ofSeconds(10)).orElseThrow();
                other.set(bLease[0].fencingToken());
            });
            try (Lease lease = ofA.tryAcquire(Duration.ofSeconds(10)).orElseThrow()) {
                assertThat(other.get()).as("the other holder was granted during the attack").isPositive();
                assertThat(lease.fencingToken()).as("A's token, stamped after B's %d overtook A's fence read",
                        other.get()).isGreaterThan(other.get());
            } finally {
                if (bLease[0] != null) {
                    bLease[0].release();
                }
            }
        }
    }

    @Test
    void aStampAfterARestartBehindItsPipelinedReadGoesPastAFenceWrittenBeforeTheRestart() throws Exception {
        try (TestingServer server = TestServers.server(); LockStore store = open(server, "pipe-restart");
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "pipe-restart")) {
            store.lock("x").acquire().release();
            String parent = ZooKeeperBackend.parentPath("x");
            AtomicLong bumped = new AtomicLong();
            atFirstStamp(store, parent, () -> {
                bumped.set(bump(raw, parent));
                server.restart(); // the stamp goes out on a new connection, the read came from the old one
            });
            try (Lease lease = store.lock("x").tryAcquire(Duration.ofSeconds(20)).orElseThrow()) {
                assertThat(bumped.get()).as("the attack ran").isPositive();
                assertThat(lease.fencingToken()).as("the token after a restart and a fence of %d behind our read",
                        bumped.get()).isGreaterThan(bumped.get());
            }
        }
    }

    @Test
    void aContenderWhoseSessionTheServerEndedAfterItsPipelinedReadIsNotGrantedBesideTheNextHolder() throws Exception {
        try (TestingServer server = TestServers.server(); LockStore a = open(server, "pipe-expired");
                LockStore b = open(server, "pipe-expired")) {
            a.lock("x").acquire().release();
            String parent = ZooKeeperBackend.parentPath("x");
            Lease[] other = new Lease[1];
            atFirstStamp(a, parent, () -> {
                Sessions.expire(TestServers.backend(a).curator(), server.getConnectString()); // A's node goes
                other[0] = b.lock("x").tryAcquire(Duration.ofSeconds(10)).orElseThrow(); // B comes first
            });
            Optional<Lease> got = a.lock("x").tryAcquire(Duration.ofSeconds(8));
            try {
                assertThat(other[0]).as("B was granted once A's session ended").isNotNull();
                assertThat(got).as("A's lease while B holds %s (A's session ended between its read and its stamp)",
                        other[0]).isEmpty();
            } finally {
                got.ifPresent(Lease::release);
                if (other[0] != null) {
                    other[0].release();
                }
            }
        }
    }

    @Test
    void aContenderWhoseClientAloneSawItsSessionEndAfterItsPipelinedReadIsNotGrantedBesideAnother()
            throws Exception {
        try (TestingServer server = TestServers.server(); LockStore a = open(server, "pipe-client-expired");
                LockStore b = open(server, "pipe-client-expired")) {
            a.lock("x").acquire().release();
            String parent = ZooKeeperBackend.parentPath("x");
            AtomicReference<Future<Optional<Lease>>> other = new AtomicReference<>();
            atFirstStamp(a, parent, () -> {
                // the server keeps A's node (its old session) until it times out; A's client goes on in a new one
                ClientSessions.expireOnClientOnly(TestServers.backend(a).curator().getZookeeperClient()
                        .getZooKeeper());
                other.set(pool.submit(() -> b.lock("x").tryAcquire(Duration.ofSeconds(12))));
            });
            Optional<Lease> got;
            try {
                got = a.lock("x").tryAcquire(Duration.ofSeconds(8));
            } catch (StoreUnavailableException e) {
                // A's client may still be making its new session when its create's connection timeout runs out: a
                // bounded wait reported as such, and not a grant either
                got = Optional.empty();
            }
            Optional<Lease> ofB = Optional.empty();
            try {
                if (got.isPresent()) {
                    ofB = other.get().get(30, TimeUnit.SECONDS); // B's wait ends while A still holds
                    assertThat(ofB).as("B's lease while A holds %s", got.get()).isEmpty();
                }
            } finally {
                got.ifPresent(Lease::release);
                ofB = ofB.isPresent() ? ofB : other.get().get(30, TimeUnit.SECONDS);
                ofB.ifPresent(Lease::release);
            }
        }
    }

    /**
     * A waiter right behind the stamped holder sends its stamp in the burst of its listing once the holder's node
     * goes (the fence it read while waiting is the holder's stamp). If that listing shows an older node first after
     * all (here an operator's node with sequence 0, as a restored server's revived node would be), the stamp grants
     * nothing: the waiter waits for that node, and once it goes it is granted a token past the one its early stamp
     * wrote, and its release (at the version that stamp left its node at) leaves no node behind.
     */
    @Test
    void aStampSentAheadOfAListingThatShowsAnOlderNodeFirstGrantsNothing() throws Exception {
        try (TestingServer server = TestServers.server(); LockStore holder = open(server, "ahead-older");
                LockStore waiter = open(server, "ahead-older");
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "ahead-older")) {
            String parent = ZooKeeperBackend.parentPath("x");
            Lease held = holder.lock("x").acquire();
            Future<Optional<Lease>> waiting = pool.submit(() -> waiter.lock("x").tryAcquire(Duration.ofSeconds(20)));
            org.awaitility.Awaitility.await("the waiter watches the holder").atMost(Duration.ofSeconds(10))
                    .until(() -> raw.getChildren().forPath(parent).size() == 2
                            && TestServers.clientWatchers(waiter) == 1);
            String older = parent + "/operator-lock-0000000000";
            raw.create().withMode(org.apache.zookeeper.CreateMode.EPHEMERAL).forPath(older);
            int versionBefore = raw.checkExists().forPath(parent).getVersion();
            held.release();
            org.awaitility.Awaitility.await("the waiter watches the older node").atMost(Duration.ofSeconds(10))
                    .until(() -> TestServers.childWatchedPaths(waiter).stream().anyMatch(p -> p.endsWith(older)));
            org.apache.zookeeper.data.Stat stamped = new org.apache.zookeeper.data.Stat();
            long early = Long.parseLong(new String(raw.getData().storingStatIn(stamped).forPath(parent),
                    java.nio.charset.StandardCharsets.US_ASCII));
            assertThat(stamped.getVersion()).as("the waiter's stamp went out with its listing").isGreaterThan(
                    versionBefore);
            assertThat(waiting.isDone()).as("the waiter granted while an older node is first").isFalse();
            assertThat(holder.lock("x").tryAcquire()).as("another client while the older node is first").isEmpty();

            raw.delete().forPath(older);
            Lease lease = waiting.get(20, TimeUnit.SECONDS).orElseThrow();
            assertThat(lease.fencingToken()).as("the token after the early stamp's %d (the holder's was %d)", early,
                    held.fencingToken()).isGreaterThan(early).isGreaterThan(held.fencingToken());
            lease.release();
            assertThat(raw.getChildren().forPath(parent)).as("nodes left after the waiter's release").isEmpty();
        }
    }

    /** What the attack does while the contender waits at its stamp. */
    @FunctionalInterface
    private interface Act {
        void run() throws Exception;
    }
}
