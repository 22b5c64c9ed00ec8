package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Review r11 attacks on the stamp a waiter right behind a stamped holder sends in the burst of its listing when the
 * holder goes ({@link StampAhead}): its reply lost after the server applied it, the waiter interrupted while it is
 * on its way, and a pin made while the waiter waited. The waiter queues after the holder's stamp, so the fence it read
 * behind its listing carries the holder's {@code mzxid} and its stamp goes out early.
 */
class EarlyStampAttackTest {

    private static final Duration SESSION = Duration.ofSeconds(10);
    private static final Duration CONNECTION = Duration.ofSeconds(3);
    /** ZooKeeper's op code of a plain listing (getChildren without a stat), which the listing sent ahead uses. */
    private static final int GET_CHILDREN = org.apache.zookeeper.ZooDefs.OpCode.getChildren;

    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stopPool() {
        pool.shutdownNow();
    }

    private static LockStore open(String connectString, String chroot) {
        return BackendStores.open(TestServers.uri(connectString, chroot, SESSION, CONNECTION));
    }

    /** Waits until {@code waiter} queued right behind the holder and watches it (its stamp then goes out early). */
    private static void awaitWatching(CuratorFramework raw, String parent, LockStore waiter) {
        await("the waiter watches the holder").atMost(Duration.ofSeconds(10))
                .until(() -> raw.getChildren().forPath(parent).size() == 2
                        && TestServers.clientWatchers(waiter) == 1);
    }

    /**
     * Counts the stamps {@code store} sends ahead of a listing ({@link ZooKeeperBackend}'s {@code listAndStamp} runs
     * the stamp hook right before it sends), so an attack can show it went through that path.
     */
    private static AtomicInteger countEarlyStamps(LockStore store) {
        AtomicInteger early = new AtomicInteger();
        TestServers.backend(store).beforeStampHook = () -> {
            if (StackWalker.getInstance()
                    .walk(frames -> frames.anyMatch(frame -> frame.getMethodName().equals("listAndStamp")))) {
                early.incrementAndGet();
            }
        };
        return early;
    }

    /** The answers {@code backend} still waits for (its private {@code waits}, which only close ends otherwise). */
    private static Set<?> openWaits(ZooKeeperBackend backend) throws ReflectiveOperationException {
        Field waits = ZooKeeperBackend.class.getDeclaredField("waits");
        waits.setAccessible(true);
        return (Set<?>) waits.get(backend);
    }

    private static String waiterNode(CuratorFramework raw, String parent) throws Exception {
        List<String> children = raw.getChildren().forPath(parent);
        assertThat(children).as("only the waiter's node left").hasSize(1);
        return parent + "/" + children.get(0);
    }

    @Test
    void anEarlyStampAppliedWhoseReplyWasLostWhileTheListingShowedUsFirstIsNotGrantedTwice() throws Exception {
        try (TestingServer server = TestServers.server();
                OpReplyCutter proxy = new OpReplyCutter(server.getPort());
                LockStore waiter = open(proxy.connectString(), "early-lost");
                LockStore holder = open(server.getConnectString(), "early-lost");
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "early-lost")) {
            String parent = ZooKeeperBackend.parentPath("x");
            Lease held = holder.lock("x").acquire();
            AtomicInteger early = countEarlyStamps(waiter);
            long session = TestServers.backend(waiter).currentSession();
            Future<Optional<Lease>> waiting = pool.submit(() -> waiter.lock("x").tryAcquire(Duration.ofSeconds(40)));
            awaitWatching(raw, parent, waiter);

            proxy.loseReplyOfNext(OpReplyCutter.MULTI, true);
            held.release();
            assertThat(proxy.cut().await(10, TimeUnit.SECONDS)).as("the early stamp's reply was lost").isTrue();
            assertThat(early).as("stamps sent ahead").hasValue(1);
            long applied = TestServers.fence(raw, parent);
            assertThat(raw.checkExists().forPath(waiterNode(raw, parent)).getVersion())
                    .as("the early stamp was applied to the waiter's node").isEqualTo(1);
            assertThat(applied).as("the early stamp was applied to the fence").isGreaterThan(held.fencingToken());
            assertThat(holder.lock("x").tryAcquire()).as("another client while the waiter's node is first").isEmpty();
            proxy.restore();

            Lease lease = waiting.get(30, TimeUnit.SECONDS).orElseThrow();
            try {
                assertThat(TestServers.backend(waiter).currentSession()).as("a blip, same session").isEqualTo(session);
                assertThat(lease.fencingToken()).as("the token after an early stamp of %d applied unheard", applied)
                        .isGreaterThan(applied).isEqualTo(TestServers.fence(raw, parent));
            } finally {
                lease.release();
            }
            try (Lease next = holder.lock("x").tryAcquire(Duration.ofSeconds(5)).orElseThrow()) {
                assertThat(next.fencingToken()).isGreaterThan(lease.fencingToken());
            }
        }
    }

    /**
     * The reply of the listing the early stamp rides behind is lost with the connection (the stamp right behind it may
     * or may not have reached the server): the waiter lists again after the reconnect and its stamp, answered
     * "connection lost", is written again at what it reads, so the token is the fence's and above the holder's.
     */
    @Test
    void anEarlyStampBehindAListingWhoseReplyWasLostIsWrittenAgainAtWhatItReads() throws Exception {
        try (TestingServer server = TestServers.server();
                OpReplyCutter proxy = new OpReplyCutter(server.getPort());
                LockStore waiter = open(proxy.connectString(), "early-listing-lost");
                LockStore holder = open(server.getConnectString(), "early-listing-lost");
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "early-listing-lost")) {
            String parent = ZooKeeperBackend.parentPath("x");
            Lease held = holder.lock("x").acquire();
            AtomicInteger early = countEarlyStamps(waiter);
            Future<Optional<Lease>> waiting = pool.submit(() -> waiter.lock("x").tryAcquire(Duration.ofSeconds(40)));
            awaitWatching(raw, parent, waiter);

            proxy.loseReplyOfNext(GET_CHILDREN, true);
            held.release();
            assertThat(proxy.cut().await(10, TimeUnit.SECONDS)).as("the listing's reply was lost").isTrue();
            assertThat(early).as("stamps sent ahead").hasValue(1);
            long between = TestServers.fence(raw, parent);
            assertThat(holder.lock("x").tryAcquire()).as("another client while the waiter's node is first").isEmpty();
            proxy.restore();

            try (Lease lease = waiting.get(30, TimeUnit.SECONDS).orElseThrow()) {
                assertThat(lease.fencingToken()).as("after the holder's %d (fence %d at the cut)",
                        held.fencingToken(), between).isGreaterThan(held.fencingToken()).isGreaterThanOrEqualTo(between)
                        .isEqualTo(TestServers.fence(raw, parent));
            }
        }
    }

    @Test
    void aWaiterInterruptedWhileItsEarlyStampIsOnItsWayEndsInTimeAndLeavesNothingHeld() throws Exception {
        try (TestingServer server = TestServers.server();
                OpReplyCutter proxy = new OpReplyCutter(server.getPort());
                LockStore waiter = open(proxy.connectString(), "early-interrupted");
                LockStore holder = open(server.getConnectString(), "early-interrupted");
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "early-interrupted")) {
            String parent = ZooKeeperBackend.parentPath("x");
            Lease held = holder.lock("x").acquire();
            AtomicInteger early = countEarlyStamps(waiter);
            Future<Optional<Lease>> waiting = pool.submit(() -> waiter.lock("x").tryAcquire(Duration.ofSeconds(40)));
            awaitWatching(raw, parent, waiter);

            proxy.holdNext(OpReplyCutter.MULTI);
            held.release();
            assertThat(proxy.held().await(10, TimeUnit.SECONDS)).as("the early stamp is held").isTrue();
            assertThat(early).as("stamps sent ahead").hasValue(1);
            long start = System.nanoTime();
            waiting.cancel(true);
            await("the interrupted acquire ends").atMost(CONNECTION.multipliedBy(3)).until(waiting::isDone);
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(tookMs).as("an interrupt while the early stamp is unanswered").isLessThan(
                    CONNECTION.toMillis() * 3);
            proxy.resume();
            await("the interrupted waiter's node goes once the server reads again").atMost(SESSION.plusSeconds(5))
                    .until(() -> raw.getChildren().forPath(parent).isEmpty());
            long applied = TestServers.fence(raw, parent);
            try (Lease next = holder.lock("x").tryAcquire(Duration.ofSeconds(5)).orElseThrow()) {
                assertThat(next.fencingToken()).as("after the abandoned early stamp (fence %d)", applied)
                        .isGreaterThan(applied).isGreaterThan(held.fencingToken());
            }
            try (Lease again = waiter.lock("x").tryAcquire(Duration.ofSeconds(10)).orElseThrow()) {
                assertThat(again.fencingToken()).isEqualTo(TestServers.fence(raw, parent));
            }
        }
    }

    /**
     * The waiter is interrupted right after {@code nextToken} took its early stamp from the listing, before it waited
     * for the stamp's answer (DEFECTS S69): the acquire ends, the stamp's call no longer stays among the answers the
     * store waits for (until close, one per such acquire), and the waiter's node, stamped or not, is gone when the
     * acquire returns, so another client takes the name at once with a token above the abandoned stamp's.
     */
    @Test
    void aWaiterInterruptedRightAfterTakingItsEarlyStampLeavesNoWaitBehindAndTheNameFree() throws Exception {
        try (TestingServer server = TestServers.server();
                LockStore waiter = open(server.getConnectString(), "early-taken");
                LockStore holder = open(server.getConnectString(), "early-taken");
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "early-taken")) {
            String parent = ZooKeeperBackend.parentPath("x");
            Lease held = holder.lock("x").acquire();
            AtomicInteger early = countEarlyStamps(waiter);
            ZooKeeperBackend backend = TestServers.backend(waiter);
            AtomicInteger interrupts = new AtomicInteger();
            backend.tookEarlyStampHook = () -> {
                interrupts.incrementAndGet();
                Thread.currentThread().interrupt();
            };
            Future<Optional<Lease>> waiting = pool.submit(() -> waiter.lock("x").tryAcquire(Duration.ofSeconds(40)));
            awaitWatching(raw, parent, waiter);

            held.release();
            assertThatThrownBy(() -> waiting.get(CONNECTION.toMillis() * 3, TimeUnit.MILLISECONDS))
                    .as("the interrupted acquire").isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(InterruptedException.class);
            assertThat(early).as("stamps sent ahead").hasValue(1);
            assertThat(interrupts).as("interrupts right after the early stamp was taken").hasValue(1);
            assertThat(openWaits(backend)).as("answers the waiter's store still waits for after its acquire ended")
                    .isEmpty();
            assertThat(raw.getChildren().forPath(parent)).as("nodes left when the interrupted acquire returned")
                    .isEmpty();
            long applied = TestServers.fence(raw, parent);
            try (Lease next = holder.lock("x").tryAcquire().orElseThrow()) {
                assertThat(next.fencingToken()).as("after the abandoned early stamp (fence %d)", applied)
                        .isGreaterThan(applied).isGreaterThan(held.fencingToken());
            }
        }
    }

    /**
     * The early stamp is held before the server reads it for longer than the operation timeout, the listing in front
     * of it answered: the wait for both beside the listing runs out, yet the listing shows the waiter first, so it
     * waits for its stamp once more and the answer, come meanwhile, is taken: the grant is at the token the stamp
     * wrote. A wait that gave up the stamp's answer there (as an abandoned {@link PlainCall} gives it to its clean-up)
     * would wait out the second wait too and fail the acquire with no answer.
     */
    @Test
    void anEarlyStampAnsweredAfterTheWaitBesideItsListingRanOutIsStillTaken() throws Exception {
        try (TestingServer server = TestServers.server();
                OpReplyCutter proxy = new OpReplyCutter(server.getPort());
                LockStore waiter = open(proxy.connectString(), "early-slow");
                LockStore holder = open(server.getConnectString(), "early-slow");
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "early-slow")) {
            String parent = ZooKeeperBackend.parentPath("x");
            Lease held = holder.lock("x").acquire();
            AtomicInteger early = countEarlyStamps(waiter);
            ZooKeeperBackend backend = TestServers.backend(waiter);
            long session = backend.currentSession();
            backend.tookEarlyStampHook = proxy::resume; // the wait beside the listing is over: let the stamp through
            Future<Optional<Lease>> waiting = pool.submit(() -> waiter.lock("x").tryAcquire(Duration.ofSeconds(40)));
            awaitWatching(raw, parent, waiter);

            proxy.holdNext(OpReplyCutter.MULTI);
            held.release();
            assertThat(proxy.held().await(10, TimeUnit.SECONDS)).as("the early stamp is held").isTrue();
            try (Lease lease = waiting.get(30, TimeUnit.SECONDS).orElseThrow()) {
                assertThat(early).as("stamps sent ahead").hasValue(1);
                assertThat(backend.currentSession()).as("the same session throughout").isEqualTo(session);
                assertThat(raw.checkExists().forPath(waiterNode(raw, parent)).getVersion())
                        .as("the waiter's node, stamped once").isEqualTo(1);
                assertThat(lease.fencingToken()).as("the token the early stamp wrote")
                        .isGreaterThan(held.fencingToken()).isEqualTo(TestServers.fence(raw, parent));
            }
        }
    }

    /**
     * The session ends on the server after the listing went through and while the early stamp is held before the
     * server reads it: the waiter's node goes, another client takes the lock, and the waiter, whose listing showed it
     * first, must not be granted beside it; it queues again in its new session and gets a larger token.
     */
    @Test
    void aSessionEndedWhileTheEarlyStampIsOnItsWayGrantsNothingBesideTheNextHolder() throws Exception {
        try (TestingServer server = TestServers.server();
                OpReplyCutter proxy = new OpReplyCutter(server.getPort());
                LockStore waiter = open(proxy.connectString(), "early-expired");
                LockStore holder = open(server.getConnectString(), "early-expired");
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "early-expired")) {
            String parent = ZooKeeperBackend.parentPath("x");
            Lease held = holder.lock("x").acquire();
            AtomicInteger early = countEarlyStamps(waiter);
            ZooKeeperBackend backend = TestServers.backend(waiter);
            long session = backend.currentSession();
            Future<Optional<Lease>> waiting = pool.submit(() -> waiter.lock("x").tryAcquire(Duration.ofSeconds(60)));
            awaitWatching(raw, parent, waiter);

            proxy.holdNext(OpReplyCutter.MULTI);
            held.release();
            assertThat(proxy.held().await(10, TimeUnit.SECONDS)).as("the early stamp is held").isTrue();
            assertThat(early).as("stamps sent ahead").hasValue(1);
            Sessions.expire(backend.curator(), server.getConnectString());
            await("the waiter's node goes with its session").atMost(Duration.ofSeconds(10))
                    .until(() -> raw.getChildren().forPath(parent).isEmpty());
            Lease between = holder.lock("x").tryAcquire(Duration.ofSeconds(10)).orElseThrow();
            proxy.resume();
            await("the waiter queues again in its new session").atMost(SESSION.plusSeconds(10))
                    .until(() -> raw.getChildren().forPath(parent).size() == 2);
            assertThat(waiting.isDone()).as("the waiter granted beside the next holder").isFalse();
            assertThat(backend.currentSession()).isNotEqualTo(session);
            between.release();
            try (Lease lease = waiting.get(20, TimeUnit.SECONDS).orElseThrow()) {
                assertThat(lease.fencingToken()).as("after the next holder's %d", between.fencingToken())
                        .isGreaterThan(between.fencingToken()).isEqualTo(TestServers.fence(raw, parent));
            }
        }
    }

    /**
     * The waiter's store closes while its early stamp is held before the server reads it: close returns within the
     * session's read timeout, the acquire ends, and once the server reads again nothing of the closed store is left.
     */
    @Test
    void aStoreClosedWhileItsEarlyStampIsOnItsWayEndsInTimeAndLeavesTheLockFree() throws Exception {
        try (TestingServer server = TestServers.server();
                OpReplyCutter proxy = new OpReplyCutter(server.getPort());
                LockStore holder = open(server.getConnectString(), "early-closed");
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "early-closed")) {
            String parent = ZooKeeperBackend.parentPath("x");
            LockStore waiter = open(proxy.connectString(), "early-closed");
            Lease held = holder.lock("x").acquire();
            AtomicInteger early = countEarlyStamps(waiter);
            Future<Optional<Lease>> waiting = pool.submit(() -> waiter.lock("x").tryAcquire(Duration.ofSeconds(60)));
            awaitWatching(raw, parent, waiter);

            proxy.holdNext(OpReplyCutter.MULTI);
            held.release();
            assertThat(proxy.held().await(10, TimeUnit.SECONDS)).as("the early stamp is held").isTrue();
            assertThat(early).as("stamps sent ahead").hasValue(1);
            long start = System.nanoTime();
            Future<?> closing = pool.submit(() -> {
                waiter.close();
                return null;
            });
            await("close() with the early stamp unanswered").atMost(SESSION).until(closing::isDone);
            closing.get();
            await("the acquire ends with its store").atMost(Duration.ofSeconds(5)).until(waiting::isDone);
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            proxy.resume();
            await("the closed store's node goes").atMost(SESSION.plusSeconds(5))
                    .until(() -> raw.getChildren().forPath(parent).isEmpty());
            long applied = TestServers.fence(raw, parent);
            try (Lease next = holder.lock("x").tryAcquire(Duration.ofSeconds(5)).orElseThrow()) {
                assertThat(next.fencingToken()).as("after the closed store's stamp (fence %d; close took %d ms)",
                        applied, tookMs).isGreaterThan(applied);
            }
        }
    }

    /**
     * An operator deletes the holder's node, the waiter's, and the parent, and makes the parent again written up to the
     * very version the waiter read, with a small number in it, all in one transaction, so the holder's going fires
     * the waiter's stamp against a parent at the version it read: the stamp must fail on the waiter's gone node, and
     * the waiter, queued again, must get a token above the holder's.
     */
    @Test
    void aParentMadeAgainUpToTheVersionTheWaiterReadDoesNotTakeTheEarlyStamp() throws Exception {
        try (TestingServer server = TestServers.server();
                LockStore waiter = open(server.getConnectString(), "early-remade");
                LockStore holder = open(server.getConnectString(), "early-remade");
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "early-remade")) {
            String parent = ZooKeeperBackend.parentPath("x");
            Lease held = holder.lock("x").acquire();
            AtomicInteger early = countEarlyStamps(waiter);
            Future<Optional<Lease>> waiting = pool.submit(() -> waiter.lock("x").tryAcquire(Duration.ofSeconds(20)));
            awaitWatching(raw, parent, waiter);
            List<String> nodes = raw.getChildren().forPath(parent);
            nodes.sort(java.util.Comparator.comparingLong(LockQueue::sequence));
            int version = raw.checkExists().forPath(parent).getVersion();
            assertThat(version).as("the holder's stamp moved the parent").isPositive();

            List<org.apache.curator.framework.api.transaction.CuratorOp> ops = new java.util.ArrayList<>();
            ops.add(raw.transactionOp().delete().forPath(parent + "/" + nodes.get(1))); // the waiter's
            ops.add(raw.transactionOp().delete().forPath(parent + "/" + nodes.get(0))); // the holder's
            ops.add(raw.transactionOp().delete().forPath(parent));
            ops.add(raw.transactionOp().create().withMode(CreateMode.PERSISTENT).forPath(parent, new byte[0]));
            for (int i = 0; i < version; i++) {
                ops.add(raw.transactionOp().setData().forPath(parent, FenceFloor.encode(1)));
            }
            raw.transaction().forOperations(ops);
            assertThat(raw.checkExists().forPath(parent).getVersion()).as("the parent made again").isEqualTo(version);

            try (Lease lease = waiting.get(20, TimeUnit.SECONDS).orElseThrow()) {
                assertThat(early).as("stamps sent ahead").hasValue(1);
                assertThat(lease.fencingToken()).as("after the holder's %d", held.fencingToken())
                        .isGreaterThan(held.fencingToken()).isEqualTo(TestServers.fence(raw, parent));
                assertThat(raw.checkExists().forPath(parent).getVersion()).as("one stamp on the parent made again")
                        .isEqualTo(version + 1);
            }
        }
    }

    /**
     * An operator's node made in one transaction with a write of the parent carries the parent's {@code mzxid}, as a
     * stamped holder's does, so the waiter behind it sends its stamp ahead when it goes although no grant wrote that
     * fence. The versioned stamp still decides: the waiter gets the one token after the fence, a third contender
     * queued behind it gets nothing meanwhile and a larger token after.
     */
    @Test
    void anOperatorsNodeFakingAStampedHoldersMzxidMakesNoSecondHolder() throws Exception {
        try (TestingServer server = TestServers.server();
                LockStore waiter = open(server.getConnectString(), "early-faked");
                LockStore third = open(server.getConnectString(), "early-faked");
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "early-faked")) {
            String parent = ZooKeeperBackend.parentPath("x");
            String faked = parent + "/operator-lock-0000000000";
            raw.create().creatingParentsIfNeeded().forPath(parent, new byte[0]);
            raw.transaction().forOperations(
                    raw.transactionOp().create().withMode(CreateMode.EPHEMERAL).forPath(faked),
                    raw.transactionOp().setData().forPath(parent, FenceFloor.encode(5)));
            assertThat(raw.checkExists().forPath(faked).getMzxid()).as("the faked mzxid")
                    .isEqualTo(raw.checkExists().forPath(parent).getMzxid());
            AtomicInteger early = countEarlyStamps(waiter);
            Future<Optional<Lease>> waiting = pool.submit(() -> waiter.lock("x").tryAcquire(Duration.ofSeconds(20)));
            awaitWatching(raw, parent, waiter);
            Future<Optional<Lease>> queued = pool.submit(() -> third.lock("x").tryAcquire(Duration.ofSeconds(20)));
            await("the third contender queues").atMost(Duration.ofSeconds(10))
                    .until(() -> raw.getChildren().forPath(parent).size() == 3);
            long before = TestServers.fence(raw, parent);

            raw.delete().forPath(faked);
            Lease lease = waiting.get(20, TimeUnit.SECONDS).orElseThrow();
            try {
                assertThat(early).as("stamps sent ahead").hasValue(1);
                assertThat(lease.fencingToken()).as("after the operator's fence %d", before)
                        .isGreaterThan(before).isEqualTo(TestServers.fence(raw, parent));
                assertThat(queued.isDone()).as("the third contender granted beside the waiter").isFalse();
            } finally {
                lease.release();
            }
            try (Lease next = queued.get(20, TimeUnit.SECONDS).orElseThrow()) {
                assertThat(next.fencingToken()).isGreaterThan(lease.fencingToken()).isEqualTo(TestServers.fence(raw, parent));
            }
        }
    }

    /**
     * A pin (an operator's, or one another store's stamp left) made while the waiter waited: the waiter's token is
     * below the clock, so its stamp deletes the pin as every ordinary stamp that finds one does ({@link FencePin}),
     * and the emptied parent can go after the release.
     */
    @Test
    void aPinMadeWhileTheWaiterWaitedGoesWithItsEarlyStamp() throws Exception {
        try (TestingServer server = TestServers.server();
                LockStore waiter = open(server.getConnectString(), "early-pin");
                LockStore holder = open(server.getConnectString(), "early-pin");
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "early-pin")) {
            String parent = ZooKeeperBackend.parentPath("x");
            Lease held = holder.lock("x").acquire();
            AtomicInteger early = countEarlyStamps(waiter);
            Future<Optional<Lease>> waiting = pool.submit(() -> waiter.lock("x").tryAcquire(Duration.ofSeconds(20)));
            awaitWatching(raw, parent, waiter);
            raw.create().withMode(CreateMode.PERSISTENT).forPath(FencePin.path(parent), FencePin.DATA);
            int versionBefore = raw.checkExists().forPath(parent).getVersion();

            held.release();
            try (Lease lease = waiting.get(20, TimeUnit.SECONDS).orElseThrow()) {
                assertThat(early).as("stamps sent ahead").hasValue(1);
                assertThat(lease.fencingToken()).isGreaterThan(held.fencingToken()).isEqualTo(TestServers.fence(raw, parent));
                assertThat(raw.checkExists().forPath(parent).getVersion()).as("one stamp").isEqualTo(versionBefore + 1);
                await("the pin goes after a grant below the clock (token " + lease.fencingToken() + ")")
                        .atMost(Duration.ofSeconds(5))
                        .until(() -> raw.checkExists().forPath(FencePin.path(parent)) == null);
                assertThat(raw.checkExists().forPath(parent).getVersion()).as("no stamp since").isEqualTo(
                        versionBefore + 1);
            }
            await("the emptied parent goes after the release").atMost(Duration.ofSeconds(15))
                    .until(() -> raw.checkExists().forPath(parent) == null);
        }
    }
}
