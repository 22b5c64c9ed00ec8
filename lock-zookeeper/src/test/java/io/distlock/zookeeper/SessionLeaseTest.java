package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LeaseState;
import io.distlock.LockLostException;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Leases are sessions: what a holder sees when its session expires, when its connection is interrupted and comes
 * back, and what a waiter sees when the server restarts under it. Each test owns its server.
 */
class SessionLeaseTest {

    private static final Duration SESSION = Duration.ofSeconds(6);
    private static final Duration CONNECTION = Duration.ofSeconds(10);
    private static final Duration PROMPTLY = Duration.ofSeconds(3);

    private TestingServer server;
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final List<LockStore> stores = new java.util.ArrayList<>();

    @BeforeEach
    void startServer() throws Exception {
        server = TestServers.server();
    }

    @AfterEach
    void stopAll() throws Exception {
        pool.shutdownNow();
        stores.forEach(LockStore::close);
        server.close();
    }

    private LockStore open() {
        LockStore store = BackendStores.open(
                TestServers.uri(server.getConnectString(), "sessions", SESSION, CONNECTION));
        stores.add(store);
        return store;
    }

    @Test
    void expiredSessionLosesTheLeaseTellsTheHolderAndFreesTheLock() throws Exception {
        LockStore holder = open();
        LockStore other = open();
        Lease lease = holder.lock("expiring").acquire();
        CompletableFuture<LockLostException> lost = new CompletableFuture<>();
        lease.onLost(lost::complete);

        Sessions.expire(TestServers.backend(holder).curator(), server.getConnectString());

        LockLostException signal = lost.get(SESSION.plus(PROMPTLY).toMillis(), TimeUnit.MILLISECONDS);
        assertThat(signal.getMessage()).contains("expiring").contains("session");
        assertThat(lease.state()).isEqualTo(LeaseState.LOST);
        assertThat(lease.isValid()).isFalse();
        assertThatThrownBy(lease::release).isInstanceOf(LockLostException.class);

        Lease next = other.lock("expiring").tryAcquire(PROMPTLY).orElseThrow();
        assertThat(next.fencingToken()).isGreaterThan(lease.fencingToken());
        next.release();
        // the holder's store lives on with a new session
        Lease again = await().atMost(CONNECTION.plus(PROMPTLY)).until(
                () -> holder.lock("expiring").tryAcquire(), Optional::isPresent).orElseThrow();
        assertThat(again.fencingToken()).isGreaterThan(next.fencingToken());
        again.release();
    }

    @Test
    void interruptedConnectionMakesTheLeaseUncertainUntilItComesBack() throws Exception {
        LockStore holder = open();
        LockStore other = open();
        Lease lease = holder.lock("blip").acquire();

        server.stop();
        await().atMost(SESSION.plus(PROMPTLY)).until(lease::state, s -> s == LeaseState.UNCERTAIN);
        assertThat(lease.isValid()).as("not valid for sure while the connection is down").isFalse();

        server.restart();
        await().atMost(CONNECTION.plus(PROMPTLY)).until(lease::state, s -> s == LeaseState.HELD);
        assertThat(lease.isValid()).isTrue();
        assertThat(other.lock("blip").tryAcquire()).as("the session survived: still held").isEmpty();
        lease.release();
        assertThat(other.lock("blip").tryAcquire(PROMPTLY)).isPresent().get()
                .satisfies(Lease::release);
    }

    @Test
    void waiterRidesOutAServerRestartAndGetsTheLockWhenReleased() throws Exception {
        LockStore holder = open();
        LockStore waiter = open();
        Lease lease = holder.lock("restart").acquire();
        CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "sessions");
        String parent = ZooKeeperBackend.parentPath("restart");
        Future<Lease> waiting = pool.submit(() -> waiter.lock("restart").acquire());
        try {
            await("the waiter queued").atMost(PROMPTLY).until(() -> raw.getChildren().forPath(parent).size() == 2);
        } finally {
            raw.close();
        }

        server.stop();
        await().atMost(SESSION.plus(PROMPTLY)).until(lease::state, s -> s == LeaseState.UNCERTAIN);
        server.restart();
        await().atMost(CONNECTION.plus(PROMPTLY)).until(lease::state, s -> s == LeaseState.HELD);
        assertThat(waiting.isDone()).as("still excluded after the restart").isFalse();

        lease.release();
        Lease next = waiting.get(CONNECTION.plus(PROMPTLY).toMillis(), TimeUnit.MILLISECONDS);
        assertThat(next.fencingToken()).isGreaterThan(lease.fencingToken());
        next.release();
    }
}
