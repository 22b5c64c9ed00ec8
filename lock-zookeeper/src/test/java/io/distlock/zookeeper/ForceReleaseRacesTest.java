package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockInfo;
import io.distlock.LockLostException;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import io.distlock.tck.fixture.ClassFixture;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The interleavings of an operator's force-release (and of a node made again at a holder's path) with a grant and a
 * release that a real server allows but timing rarely shows: a contender that has come first but not yet stamped its
 * fencing token, and a release between its check and its delete. The backend's test hooks hold the contender or the
 * release at that point while the test acts through other sessions of the same server.get().
 */
class ForceReleaseRacesTest {

    private static final Duration PROMPTLY = Duration.ofSeconds(5);
    private static final String CHROOT = "force-races";

    @RegisterExtension
    static final ClassFixture<TestingServer> server = new ClassFixture<>(TestServers::server);
    private final ExecutorService pool = Executors.newCachedThreadPool();



    @AfterEach
    void shutdown() {
        pool.shutdownNow();
    }

    private static LockStore open() {
        return BackendStores.open(TestServers.uri(server.get().getConnectString(), CHROOT, Duration.ofSeconds(6),
                Duration.ofSeconds(4)));
    }

    /** A hook that holds the first thread to reach it until {@code proceed} opens, telling {@code reached}. */
    private static Runnable holdFirst(CountDownLatch reached, CountDownLatch proceed) {
        AtomicBoolean first = new AtomicBoolean(true);
        return () -> {
            if (first.compareAndSet(true, false)) {
                reached.countDown();
                try {
                    proceed.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
    }

    private static int contenders(CuratorFramework raw, String name) throws Exception {
        Stat stat = raw.checkExists().forPath(ZooKeeperBackend.parentPath(name));
        return stat == null ? 0 : stat.getNumChildren();
    }

    /**
     * §25.2 on a holder that has come first and not yet stamped its token: the token {@code list} shows then is the
     * holder's before (its stamp is newer than the new holder's node, since that holder queued before it stamped),
     * and a force-release with it must be refused, not break the new holder.
     */
    @Test
    void forceReleaseWithThePreviousHoldersTokenSparesAHolderNotYetStamped() throws Exception {
        String name = "unstamped-holder";
        try (LockStore first = open(); LockStore previous = open(); LockStore next = open();
                LockStore operator = open();
                CuratorFramework raw = TestServers.rawClient(server.get().getConnectString(), CHROOT)) {
            Lease firstLease = first.lock(name).acquire();
            Future<Lease> previousAcquire = pool.submit(() -> previous.lock(name).acquire());
            await().atMost(PROMPTLY).until(() -> contenders(raw, name) == 2);
            CountDownLatch reached = new CountDownLatch(1);
            CountDownLatch proceed = new CountDownLatch(1);
            TestServers.backend(next).beforeStampHook = holdFirst(reached, proceed);
            Future<Lease> nextAcquire = pool.submit(() -> next.lock(name).acquire());
            await().atMost(PROMPTLY).until(() -> contenders(raw, name) == 3);

            firstLease.release();
            // stamps after next queued
            Lease previousLease = previousAcquire.get(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS);
            previousLease.release();
            assertThat(reached.await(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS)).as("next came first").isTrue();

            List<LockInfo> listed = operator.admin().list(name, 1);
            assertThat(listed).extracting(LockInfo::fencingToken).as("the stamp is still the previous holder's")
                    .containsExactly(previousLease.fencingToken());
            boolean broken = operator.admin().forceRelease(name, previousLease.fencingToken());
            proceed.countDown();
            Lease nextLease = nextAcquire.get(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(broken).as("force-release with the previous holder's token %d, while the next holder had come "
                    + "first but not yet stamped its own", previousLease.fencingToken()).isFalse();
            assertThat(nextLease.fencingToken()).isGreaterThan(previousLease.fencingToken());
            assertThat(first.lock(name).tryAcquire()).as("another client while next holds").isEmpty();
            nextLease.release();
        }
    }

    /**
     * A contender whose node is force-released after it came first and before it stamped its token must not be
     * granted with the node gone: the lock would be free for anyone while it holds.
     */
    @Test
    void aContenderForceReleasedBeforeItsStampIsNotGrantedWithoutItsNode() throws Exception {
        String name = "released-before-stamp";
        try (LockStore contender = open(); LockStore other = open(); LockStore operator = open()) {
            CountDownLatch reached = new CountDownLatch(1);
            CountDownLatch proceed = new CountDownLatch(1);
            TestServers.backend(contender).beforeStampHook = holdFirst(reached, proceed);
            Future<Lease> acquiring = pool.submit(() -> contender.lock(name).acquire());
            assertThat(reached.await(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS)).as("contender came first").isTrue();

            assertThat(operator.admin().forceRelease(name)).as("the contender's node, first in line").isTrue();
            proceed.countDown();
            Lease lease = acquiring.get(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(other.lock(name).tryAcquire()).as("another client while the contender holds %s", lease)
                    .isEmpty();
            assertThat(lease.isValid()).isTrue();
            lease.release();
        }
    }

    /**
     * A contender whose node an operator wrote into after it came first and before its stamp (its version moved on,
     * the node still its own) is still granted with that node, and leaves no node behind that would block the name.
     */
    @Test
    void aContenderWhoseNodeWasWrittenIntoBeforeItsStampIsGrantedAndLeavesNothing() throws Exception {
        String name = "written-before-stamp";
        try (LockStore contender = open(); LockStore other = open();
                CuratorFramework raw = TestServers.rawClient(server.get().getConnectString(), CHROOT)) {
            CountDownLatch reached = new CountDownLatch(1);
            CountDownLatch proceed = new CountDownLatch(1);
            TestServers.backend(contender).beforeStampHook = holdFirst(reached, proceed);
            Future<Lease> acquiring = pool.submit(() -> contender.lock(name).acquire());
            assertThat(reached.await(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS)).as("contender came first").isTrue();
            String parent = ZooKeeperBackend.parentPath(name);
            raw.setData().forPath(parent + "/" + raw.getChildren().forPath(parent).get(0), "an operator's".getBytes());
            proceed.countDown();

            Lease lease = acquiring.get(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(other.lock(name).tryAcquire()).as("another client while the contender holds").isEmpty();
            lease.release();
            assertThat(contenders(raw, name)).as("nodes left under the lock").isZero();
            other.lock(name).tryAcquire().orElseThrow(() -> new AssertionError("the released lock is free"))
                    .release();
        }
    }

    /**
     * A release whose node was deleted and made again at its path by another session (an operator's hand) between
     * the release's look at the node and its delete must not delete the other session's node, and reports the loss.
     */
    @Test
    void aReleaseNeverDeletesANodeMadeAgainAtItsPathByAnotherSession() throws Exception {
        String name = "remade-at-release";
        try (LockStore holder = open();
                CuratorFramework raw = TestServers.rawClient(server.get().getConnectString(), CHROOT)) {
            Lease lease = holder.lock(name).acquire();
            String parent = ZooKeeperBackend.parentPath(name);
            String path = parent + "/" + raw.getChildren().forPath(parent).get(0);
            TestServers.backend(holder).beforeDeleteHook = () -> {
                try {
                    raw.delete().forPath(path);
                    raw.create().withMode(CreateMode.EPHEMERAL).forPath(path, "an operator's".getBytes());
                } catch (Exception e) {
                    throw new IllegalStateException("could not remake " + path, e);
                }
            };
            assertThatThrownBy(lease::release).isInstanceOf(LockLostException.class);
            assertThat(raw.checkExists().forPath(path)).as("the node the other session made at %s", path).isNotNull();
        }
    }
}
