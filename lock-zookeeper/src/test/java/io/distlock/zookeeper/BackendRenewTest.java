package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.spi.Grant;
import io.distlock.spi.LeaseEvents;
import io.distlock.spi.Renewal;
import io.distlock.spi.Wait;
import io.distlock.tck.fixture.ClassFixture;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.ClientSessions;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code renew} on a session-bound store is the check {@code extend()} makes: one round trip that the node still
 * exists and belongs to the current session, whatever the caller's interrupt flag.
 */
class BackendRenewTest {

    private static final Duration SESSION = Duration.ofSeconds(6);
    @RegisterExtension
    static final ClassFixture<TestingServer> server = new ClassFixture<>(TestServers::server);



    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    private static ZooKeeperBackend backend() {
        ZooKeeperBackend backend = TestServers.backend(
                TestServers.uri(server.get().getConnectString(), "renew", SESSION, Duration.ofSeconds(5)));
        backend.attach(LeaseEvents.NONE);
        return backend;
    }

    private static List<Renewal> renewalOf(Grant grant) {
        return List.of(new Renewal(grant, Duration.ofSeconds(30)));
    }

    @Test
    void aHeldNodeIsStillHeld() throws Exception {
        try (ZooKeeperBackend backend = backend()) {
            Grant grant = backend.acquire("kept", Duration.ofSeconds(30), Wait.none());
            assertThat(backend.renew(renewalOf(grant))).isEmpty();
            backend.release(grant);
        }
    }

    @Test
    void aNodeDeletedBehindItsBackIsReportedAtOnce() throws Exception {
        try (ZooKeeperBackend backend = backend()) {
            Grant grant = backend.acquire("deleted", Duration.ofSeconds(30), Wait.none());
            backend.curator().delete().forPath(((LockNode) grant.handle()).path());
            assertThat(backend.renew(renewalOf(grant))).as("checked in the store, not only locally")
                    .containsExactly(grant);
        }
    }

    @Test
    void aNodeOfAReplacedSessionIsNoLongerHeld() throws Exception {
        try (ZooKeeperBackend backend = backend()) {
            Grant grant = backend.acquire("replaced", Duration.ofSeconds(30), Wait.none());
            CuratorFramework client = backend.curator();
            long old = client.getZookeeperClient().getZooKeeper().getSessionId();
            ClientSessions.expireOnClientOnly(client.getZookeeperClient().getZooKeeper());
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> {
                ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
                return zk.getState().isConnected() && zk.getSessionId() != old;
            });
            assertThat(client.checkExists().forPath(((LockNode) grant.handle()).path()))
                    .as("the old session's node is still on the server").isNotNull();
            assertThat(backend.renew(renewalOf(grant))).containsExactly(grant);
        }
    }

    @Test
    void renewOnAnInterruptedThreadStillAsksTheStore() throws Exception {
        try (ZooKeeperBackend backend = backend()) {
            Grant grant = backend.acquire("interrupted", Duration.ofSeconds(30), Wait.none());
            Thread.currentThread().interrupt();
            assertThat(backend.renew(renewalOf(grant))).isEmpty();
            assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isTrue();
            backend.release(grant);
        }
    }

    @Test
    void renewOfManyLeasesIsAnswered() throws Exception {
        try (ZooKeeperBackend backend = backend()) {
            List<Grant> grants = new java.util.ArrayList<>();
            for (int i = 0; i < 20; i++) {
                grants.add(backend.acquire("many-" + i, Duration.ofSeconds(30),
                        Wait.upTo(TimeUnit.SECONDS.toNanos(5))));
            }
            backend.curator().delete().forPath(((LockNode) grants.get(7).handle()).path());
            assertThat(backend.renew(grants.stream().map(g -> new Renewal(g, Duration.ofSeconds(30))).toList()))
                    .containsExactly(grants.get(7));
        }
    }
}
