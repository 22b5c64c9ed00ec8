package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.DistributedSemaphore;
import io.distlock.Lease;
import io.distlock.LockStore;
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
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Review r10 attacks on the stamp and the release's delete sent on the plain ZooKeeper handle (r10-zkcost): the server
 * applies the request and the reply is lost with the connection (a proxy swallows it), or the server stops reading the
 * client while the request waits. A stamp applied unheard must never be granted again nor hide behind a smaller token;
 * a delete applied unheard is a release, not a loss, and must take nothing of a later grant with it; a delete the
 * server does not answer is waited for within one operation timeout and the node still goes.
 */
class PlainHandleAttackTest {

    private static final Duration SESSION = Duration.ofSeconds(10);
    private static final Duration CONNECTION = Duration.ofSeconds(3);

    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stopPool() {
        pool.shutdownNow();
    }

    private static LockStore open(String connectString, String chroot) {
        return BackendStores.open(TestServers.uri(connectString, chroot, SESSION, CONNECTION));
    }

    @Test
    void aStampAppliedWhoseReplyWasLostIsNotGrantedAgainAndTheLeaseHoldsTheFencesToken() throws Exception {
        try (TestingServer server = TestServers.server();
                OpReplyCutter proxy = new OpReplyCutter(server.getPort());
                LockStore store = open(proxy.connectString(), "stamp-lost");
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "stamp-lost")) {
            store.lock("x").acquire().release(); // the parent and its fence exist
            String parent = ZooKeeperBackend.parentPath("x");
            long before = TestServers.fence(raw, parent);
            long session = TestServers.backend(store).currentSession();

            proxy.loseReplyOfNext(OpReplyCutter.MULTI, true);
            Future<Optional<Lease>> acquiring = pool.submit(() -> store.lock("x").tryAcquire(Duration.ofSeconds(20)));
            assertThat(proxy.cut().await(10, TimeUnit.SECONDS)).as("the stamp's reply was lost").isTrue();
            long applied = TestServers.fence(raw, parent);
            List<String> children = raw.getChildren().forPath(parent);
            assertThat(children).hasSize(1);
            assertThat(raw.checkExists().forPath(parent + "/" + children.get(0)).getVersion())
                    .as("the stamp was applied to our node").isEqualTo(1);
            assertThat(applied).as("the stamp was applied to the fence").isGreaterThan(before);
            assertThat(raw.checkExists().forPath(FencePin.path(parent)))
                    .as("no pin: an ordinary stamp, sent on the plain handle").isNull();
            proxy.restore();

            try (Lease lease = acquiring.get(30, TimeUnit.SECONDS).orElseThrow()) {
                assertThat(TestServers.backend(store).currentSession()).as("a blip, same session").isEqualTo(session);
                assertThat(lease.fencingToken()).as("the token after a stamp of %d applied unheard", applied)
                        .isGreaterThan(applied).isEqualTo(TestServers.fence(raw, parent));
            }
        }
    }

    @Test
    void aStampAppliedUnheardThenTheSessionEndedAndAnotherHolderCameGrantsAboveBoth() throws Exception {
        try (TestingServer server = TestServers.server();
                OpReplyCutter proxy = new OpReplyCutter(server.getPort());
                LockStore store = open(proxy.connectString(), "stamp-lost-expired");
                LockStore other = open(server.getConnectString(), "stamp-lost-expired");
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "stamp-lost-expired")) {
            store.lock("x").acquire().release();
            String parent = ZooKeeperBackend.parentPath("x");
            ZooKeeperBackend backend = TestServers.backend(store);
            long session = backend.currentSession();

            proxy.loseReplyOfNext(OpReplyCutter.MULTI, true);
            Future<Optional<Lease>> acquiring = pool.submit(() -> store.lock("x").tryAcquire(Duration.ofSeconds(30)));
            assertThat(proxy.cut().await(10, TimeUnit.SECONDS)).as("the stamp's reply was lost").isTrue();
            long applied = TestServers.fence(raw, parent);
            Sessions.expire(backend.curator(), server.getConnectString()); // our stamped node goes with it
            long between;
            try (Lease lease = other.lock("x").tryAcquire(Duration.ofSeconds(10)).orElseThrow()) {
                between = lease.fencingToken();
            }
            assertThat(between).as("the other holder's token after a stamp of %d applied unheard", applied)
                    .isGreaterThan(applied);
            proxy.restore();

            Optional<Lease> got = acquiring.get(40, TimeUnit.SECONDS);
            try {
                assertThat(got).as("the contender got the lock in its new session").isPresent();
                assertThat(backend.currentSession()).isNotEqualTo(session);
                assertThat(got.get().fencingToken()).as("after %d applied unheard and %d granted to another", applied,
                        between).isGreaterThan(between).isEqualTo(TestServers.fence(raw, parent));
            } finally {
                got.ifPresent(Lease::release);
            }
        }
    }

    @Test
    void aPermitStampAppliedUnheardWhileAnotherHolderStampsIsGrantedAboveIt() throws Exception {
        try (TestingServer server = TestServers.server();
                OpReplyCutter proxy = new OpReplyCutter(server.getPort());
                LockStore store = open(proxy.connectString(), "stamp-lost-permit");
                LockStore other = open(server.getConnectString(), "stamp-lost-permit");
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "stamp-lost-permit")) {
            DistributedSemaphore ours = store.semaphore("s", 2);
            ours.acquire().release();
            String parent = ZooKeeperPermits.parentPath("s");

            proxy.loseReplyOfNext(OpReplyCutter.MULTI, true);
            Future<Optional<Lease>> acquiring = pool.submit(() -> ours.tryAcquire(Duration.ofSeconds(20)));
            assertThat(proxy.cut().await(10, TimeUnit.SECONDS)).as("the stamp's reply was lost").isTrue();
            long applied = TestServers.fence(raw, parent);
            try (Lease theirs = other.semaphore("s", 2).tryAcquire(Duration.ofSeconds(10)).orElseThrow()) {
                assertThat(theirs.fencingToken()).isGreaterThan(applied);
                proxy.restore();
                try (Lease lease = acquiring.get(30, TimeUnit.SECONDS).orElseThrow()) {
                    assertThat(lease.fencingToken()).as("after %d applied unheard and %d granted to another",
                            applied, theirs.fencingToken()).isGreaterThan(theirs.fencingToken())
                            .isEqualTo(TestServers.fence(raw, parent));
                }
            }
        }
    }

    @Test
    void aDeleteAppliedWhoseReplyWasLostIsAReleaseAndTakesNothingOfTheNextGrant() throws Exception {
        try (TestingServer server = TestServers.server();
                OpReplyCutter proxy = new OpReplyCutter(server.getPort());
                LockStore store = open(proxy.connectString(), "delete-lost");
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "delete-lost")) {
            String parent = ZooKeeperBackend.parentPath("x");
            long session = TestServers.backend(store).currentSession();
            Lease lease = store.lock("x").acquire();
            Queue<String> lost = new ConcurrentLinkedQueue<>();
            lease.onLost(e -> lost.add(e.getMessage()));

            proxy.loseReplyOfNext(OpReplyCutter.DELETE, false);
            lease.release();
            assertThat(proxy.cut().await(0, TimeUnit.SECONDS)).as("the delete's reply was lost").isTrue();
            assertThat(lost).as("losses of a lease whose delete was applied unheard").isEmpty();
            assertThat(TestServers.backend(store).currentSession()).isEqualTo(session);

            try (Lease again = store.lock("x").tryAcquire(Duration.ofSeconds(10)).orElseThrow()) {
                Queue<String> lostAgain = new ConcurrentLinkedQueue<>();
                again.onLost(e -> lostAgain.add(e.getMessage()));
                List<String> nodes = raw.getChildren().forPath(parent);
                assertThat(nodes).hasSize(1);
                await("the next grant's node stays").during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4))
                        .untilAsserted(() -> assertThat(raw.getChildren().forPath(parent)).isEqualTo(nodes));
                assertThat(lostAgain).isEmpty();
            }
        }
    }

    @Test
    void aDeleteTheServerDoesNotAnswerIsWaitedForWithinOneOperationTimeoutAndTheNodeStillGoes() throws Exception {
        try (TestingServer server = TestServers.server();
                OpReplyCutter proxy = new OpReplyCutter(server.getPort());
                LockStore store = open(proxy.connectString(), "delete-paused");
                LockStore other = open(server.getConnectString(), "delete-paused");
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "delete-paused")) {
            String parent = ZooKeeperBackend.parentPath("x");
            Lease lease = store.lock("x").acquire();
            proxy.holdNext(OpReplyCutter.DELETE);
            long start = System.nanoTime();
            Future<?> releasing = pool.submit(lease::release);
            assertThat(proxy.held().await(10, TimeUnit.SECONDS)).as("the delete is held").isTrue();
            Throwable failure = null;
            try {
                releasing.get(CONNECTION.toMillis() * 2, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                failure = e.getCause(); // a release not answered within the operation timeout says so
            }
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(tookMs).as("release with the server not reading").isLessThan(CONNECTION.toMillis() * 2);
            assertThat(failure).as("the release's outcome").isInstanceOf(io.distlock.StoreUnavailableException.class);
            assertThat(raw.getChildren().forPath(parent)).as("the node while its delete is held").hasSize(1);
            proxy.resume();
            await("the node goes once the server reads again").atMost(SESSION)
                    .until(() -> raw.getChildren().forPath(parent).isEmpty());
            try (Lease next = other.lock("x").tryAcquire(Duration.ofSeconds(5)).orElseThrow()) {
                assertThat(next.fencingToken()).isGreaterThan(lease.fencingToken());
            }
        }
    }

    @Test
    void closingTheStoreDuringAHeldDeleteEndsTheReleaseAndTheNodeGoesWithTheSession() throws Exception {
        try (TestingServer server = TestServers.server();
                OpReplyCutter proxy = new OpReplyCutter(server.getPort());
                LockStore other = open(server.getConnectString(), "delete-close");
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "delete-close")) {
            LockStore store = open(proxy.connectString(), "delete-close");
            String parent = ZooKeeperBackend.parentPath("x");
            Lease lease = store.lock("x").acquire();
            proxy.holdNext(OpReplyCutter.DELETE);
            Future<?> releasing = pool.submit(lease::release);
            assertThat(proxy.held().await(10, TimeUnit.SECONDS)).as("the delete is held").isTrue();
            long start = System.nanoTime();
            Future<?> closing = pool.submit(store::close);
            try {
                releasing.get(CONNECTION.toMillis() * 2, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                // ended by close: may throw
            }
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(tookMs).as("release ended by close").isLessThan(CONNECTION.toMillis() * 2);
            proxy.resume();
            closing.get(SESSION.toMillis(), TimeUnit.MILLISECONDS);
            await("the node goes").atMost(SESSION.plusSeconds(5))
                    .until(() -> raw.getChildren().forPath(parent).isEmpty());
            try (Lease next = other.lock("x").tryAcquire(Duration.ofSeconds(5)).orElseThrow()) {
                assertThat(next.fencingToken()).isGreaterThan(lease.fencingToken());
            }
        }
    }
    @Test
    void aStampTheServerDoesNotAnswerEndsTheAcquireInTimeAndLeavesNoNodeBehindOnceTheServerReadsAgain()
            throws Exception {
        try (TestingServer server = TestServers.server();
                OpReplyCutter proxy = new OpReplyCutter(server.getPort());
                LockStore store = open(proxy.connectString(), "stamp-paused");
                LockStore other = open(server.getConnectString(), "stamp-paused");
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "stamp-paused")) {
            store.lock("x").acquire().release();
            String parent = ZooKeeperBackend.parentPath("x");
            proxy.holdNext(OpReplyCutter.MULTI);
            long start = System.nanoTime();
            Future<Optional<Lease>> acquiring = pool.submit(() -> store.lock("x").tryAcquire(Duration.ofSeconds(1)));
            assertThat(proxy.held().await(10, TimeUnit.SECONDS)).as("the stamp is held").isTrue();
            Throwable failure = null;
            try {
                Optional<Lease> got = acquiring.get(CONNECTION.toMillis() * 3, TimeUnit.MILLISECONDS);
                assertThat(got).as("a lease whose stamp the server never answered").isEmpty();
            } catch (java.util.concurrent.ExecutionException e) {
                failure = e.getCause();
            }
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(tookMs).as("tryAcquire(1 s) with the stamp unanswered (failure: %s)", failure)
                    .isLessThan(1000 + CONNECTION.toMillis() + 2000);
            assertThat(failure).isInstanceOf(io.distlock.StoreUnavailableException.class);
            proxy.resume();
            await("the abandoned contender's node goes once the server reads again").atMost(SESSION)
                    .until(() -> raw.getChildren().forPath(parent).isEmpty());
            long applied = TestServers.fence(raw, parent);
            try (Lease next = other.lock("x").tryAcquire(Duration.ofSeconds(5)).orElseThrow()) {
                assertThat(next.fencingToken()).as("after the abandoned stamp of %d", applied)
                        .isGreaterThan(applied);
            }
        }
    }
    /**
     * An ordinary stamp (no pin, on the plain handle) overtaken by another holder's stamp that made the pin (an
     * operator moved the fence ahead of the clock after our read): ours must fail on the fence's version, read again
     * and go past the other's token, with the pin kept.
     */
    @Test
    void anOrdinaryPermitStampOvertakenByAnotherStoresPinMakingStampGoesPastIt() throws Exception {
        try (TestingServer server = TestServers.server();
                LockStore store = open(server.getConnectString(), "stamp-vs-pin");
                LockStore other = open(server.getConnectString(), "stamp-vs-pin");
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "stamp-vs-pin")) {
            DistributedSemaphore ours = store.semaphore("s", 2);
            ours.acquire().release();
            String parent = ZooKeeperPermits.parentPath("s");
            assertThat(raw.checkExists().forPath(FencePin.path(parent))).as("no pin before").isNull();
            ZooKeeperBackend backend = TestServers.backend(store);
            java.util.concurrent.atomic.AtomicLong ahead = new java.util.concurrent.atomic.AtomicLong();
            Lease[] theirs = new Lease[1];
            java.util.concurrent.atomic.AtomicBoolean first = new java.util.concurrent.atomic.AtomicBoolean(true);
            backend.beforeStampHook = () -> {
                if (first.compareAndSet(true, false)) {
                    try {
                        backend.curator().checkExists().forPath(parent); // behind our pipelined fence read
                        ahead.set(System.currentTimeMillis() * 1000 + 1_000_000_000_000L);
                        raw.setData().forPath(parent, FenceFloor.encode(ahead.get()));
                        theirs[0] = other.semaphore("s", 2).tryAcquire(Duration.ofSeconds(10)).orElseThrow();
                    } catch (Exception e) {
                        throw new IllegalStateException("the attack at the stamp failed", e);
                    }
                }
            };
            try (Lease lease = ours.tryAcquire(Duration.ofSeconds(10)).orElseThrow()) {
                assertThat(theirs[0]).as("the other holder stamped during our stamp").isNotNull();
                assertThat(theirs[0].fencingToken()).isGreaterThan(ahead.get());
                assertThat(raw.checkExists().forPath(FencePin.path(parent))).as("the other's stamp made the pin")
                        .isNotNull();
                assertThat(lease.fencingToken()).as("ours after the other's pinned %d", theirs[0].fencingToken())
                        .isGreaterThan(theirs[0].fencingToken()).isEqualTo(TestServers.fence(raw, parent));
                assertThat(raw.checkExists().forPath(FencePin.path(parent))).as("the pin after ours").isNotNull();
            } finally {
                if (theirs[0] != null) {
                    theirs[0].release();
                }
            }
        }
    }
}
