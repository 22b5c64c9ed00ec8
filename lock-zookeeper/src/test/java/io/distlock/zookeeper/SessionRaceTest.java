package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.spi.Grant;
import io.distlock.spi.LeaseEvents;
import io.distlock.spi.Wait;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.ClientSessions;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Session changes racing an acquisition: every grant the backend issued in a session that ends is reported lost, also
 * one the core has not registered yet; a grant is never made from a node of a session that already ended; a waiter
 * whose session was replaced does not take the lock with the node it queued in the old one.
 */
class SessionRaceTest {

    private static final Duration SESSION = Duration.ofSeconds(4);
    private static final Duration CONNECTION = Duration.ofSeconds(4);
    private static final Duration PROMPTLY = Duration.ofSeconds(5);

    private TestingServer server;
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final List<AutoCloseable> closing = new ArrayList<>();

    @BeforeEach
    void startServer() throws Exception {
        server = TestServers.server();
    }

    @AfterEach
    void stopAll() throws Exception {
        pool.shutdownNow();
        for (AutoCloseable c : closing) {
            c.close();
        }
        server.close();
    }

    private String uri() {
        return TestServers.uri(server.getConnectString(), "races", SESSION, CONNECTION);
    }

    private ZooKeeperBackend backend(Recorder events) {
        ZooKeeperBackend backend = TestServers.backend(uri());
        closing.add(backend);
        backend.attach(events);
        return backend;
    }

    private LockStore open() {
        LockStore store = BackendStores.open(uri());
        closing.add(store);
        return store;
    }

    private static ZooKeeper zooKeeperOf(CuratorFramework client) throws Exception {
        return client.getZookeeperClient().getZooKeeper();
    }

    @Test
    void lossOfTheSessionReportsEveryGrantItIssuedAlsoOnesNotYetRegistered() throws Exception {
        Recorder events = new Recorder();
        ZooKeeperBackend backend = backend(events);
        Grant grant = backend.acquire("issued", Duration.ofSeconds(30), Wait.none()); // no core: nothing registers it

        Sessions.expire(backend.curator(), server.getConnectString());

        events.sessionLost.get(SESSION.plus(PROMPTLY).toMillis(), TimeUnit.MILLISECONDS);
        assertThat(events.log()).as("each grant of the dead session reported lost, then the session")
                .containsSubsequence("lost " + grant.fencingToken(), "session lost");
    }

    @Test
    void aGrantRacingTheSessionLossIsMadeFromANodeOfTheLiveSession() throws Exception {
        Recorder events = new Recorder();
        ZooKeeperBackend backend = backend(events);
        CountDownLatch atGrant = new CountDownLatch(1);
        CountDownLatch proceed = new CountDownLatch(1);
        AtomicBoolean first = new AtomicBoolean(true);
        backend.beforeGrantHook = () -> {
            if (first.compareAndSet(true, false)) {
                atGrant.countDown();
                try {
                    proceed.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        Future<Grant> acquiring = pool.submit(() -> backend.acquire("racing", Duration.ofSeconds(30),
                Wait.upTo(TimeUnit.SECONDS.toNanos(30))));
        assertThat(atGrant.await(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS)).as("our node came first").isTrue();

        Sessions.expire(backend.curator(), server.getConnectString());
        events.sessionLost.get(SESSION.plus(PROMPTLY).toMillis(), TimeUnit.MILLISECONDS);
        proceed.countDown(); // the session loss was handled completely before the grant is made

        Grant grant = acquiring.get(SESSION.plus(PROMPTLY).toMillis(), TimeUnit.MILLISECONDS);
        LockNode node = (LockNode) grant.handle();
        Stat stat = backend.curator().checkExists().forPath(node.path());
        boolean live = stat != null && stat.getEphemeralOwner() == zooKeeperOf(backend.curator()).getSessionId();
        assertThat(live).as("grant %s from a node of the live session (node %s, events %s)",
                grant, stat == null ? "gone" : "of session " + stat.getEphemeralOwner(), events.log()).isTrue();
    }

    @Test
    void aWaiterWhoseSessionWasReplacedDoesNotHoldWithItsOldNode() throws Exception {
        LockStore holder = open();
        LockStore waiter = open();
        LockStore third = open();
        Lease held = holder.lock("replaced").acquire();
        Future<Lease> waiting = pool.submit(() -> waiter.lock("replaced").acquire());
        CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "races");
        closing.add(raw);
        String parent = ZooKeeperBackend.parentPath("replaced");
        await("the waiter queued").atMost(PROMPTLY).until(() -> raw.getChildren().forPath(parent).size() == 2);

        CuratorFramework client = TestServers.backend(waiter).curator();
        long oldSession = zooKeeperOf(client).getSessionId();
        // the client believes its session expired and starts a new one; the server keeps the old one (and the node
        // queued in it) until it times out
        ClientSessions.expireOnClientOnly(zooKeeperOf(client));
        await("a new session").atMost(PROMPTLY).ignoreExceptions().until(() -> {
            ZooKeeper zk = zooKeeperOf(client);
            return zk.getState().isConnected() && zk.getSessionId() != oldSession;
        });
        held.release();

        Lease lease = waiting.get(SESSION.multipliedBy(2).plus(PROMPTLY).toMillis(), TimeUnit.MILLISECONDS);
        assertThat(third.lock("replaced").tryAcquire(SESSION.plus(PROMPTLY)))
                .as("the waiter holds the lock, also after its old session ended on the server").isEmpty();
        assertThat(lease.isValid()).isTrue();
        lease.release();
    }

    /** Lease events as a log, in the order the backend sent them. */
    static final class Recorder implements LeaseEvents {
        private final List<String> log = new ArrayList<>();
        final CompletableFuture<Void> sessionLost = new CompletableFuture<>();

        synchronized List<String> log() {
            return List.copyOf(log);
        }

        @Override
        public synchronized void suspended() {
            log.add("suspended");
        }

        @Override
        public synchronized void reconnected() {
            log.add("reconnected");
        }

        @Override
        public void sessionLost(String reason) {
            synchronized (this) {
                log.add("session lost");
            }
            sessionLost.complete(null);
        }

        @Override
        public synchronized void lost(Grant grant, String reason) {
            log.add("lost " + grant.fencingToken());
        }
    }
}
