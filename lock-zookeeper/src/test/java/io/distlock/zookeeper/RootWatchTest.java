package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LeaseState;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.curator.utils.ZKPaths;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Many locks held long share one persistent recursive watch on their root instead of one watch per node, and a node
 * deleted behind its holder's back is still reported lost at once: one held before the root watch was set, one taken
 * while it is on, one after the holder went back to one watch per node, and one after a reconnect. The leases are 60 s
 * long, so their renewal checks (every 20 s) come too late to be what reports the loss. Each test owns its server
 * (one restarts it).
 */
class RootWatchTest {

    private static final String CHROOT = "rootwatch";
    private static final LockOptions LONG = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(60));
    private static final Duration SESSION = Duration.ofSeconds(6);
    private static final Duration CONNECTION = Duration.ofSeconds(10);
    /** Long enough for a few sweeps on a loaded machine, far shorter than the first renewal check (20 s). */
    private static final Duration PROMPTLY = Duration.ofSeconds(8);
    private static final int MANY = RootWatch.ON_FROM + 16;

    private TestingServer server;
    private LockStore store;
    private CuratorFramework raw;

    @BeforeEach
    void start() throws Exception {
        server = TestServers.server();
        store = BackendStores.open(TestServers.uri(server.getConnectString(), CHROOT, SESSION, CONNECTION));
        raw = TestServers.rawClient(server.getConnectString(), CHROOT);
    }

    @AfterEach
    void stop() throws Exception {
        raw.close();
        store.close();
        server.close();
    }

    @Test
    void manyLongHeldLocksShareOneRootWatchAndADeletedNodeIsStillReportedLost() throws Exception {
        List<Lease> leases = hold("many-", MANY);
        awaitOneRootWatch();

        assertReportedLostWhenDeleted(leases.get(0), "many-0");
        Lease later = store.lock("later", LONG).acquire();
        assertReportedLostWhenDeleted(later, "later");
        assertThat(TestServers.clientWatchers(store)).as("one-shot watches, one per node held before the root watch")
                .isLessThan(RootWatch.ON_FROM);
        releaseValid(leases);
    }

    @Test
    void fewLongHeldLocksGoBackToOneWatchEach() throws Exception {
        List<Lease> leases = hold("few-", MANY);
        awaitOneRootWatch();
        int left = RootWatch.OFF_BELOW - 1;
        releaseValid(leases.subList(left, leases.size()));

        await("the root watch is removed and each node left is watched on its own").atMost(PROMPTLY)
                .until(() -> TestServers.clientRootWatchers(store) == 0 && TestServers.clientWatchers(store) == left);
        assertReportedLostWhenDeleted(leases.get(0), "few-0");
        releaseValid(leases.subList(0, left));
    }

    @Test
    void aReconnectKeepsTheRootWatchWithoutOneWatchPerNode() throws Exception {
        List<Lease> leases = hold("blip-", MANY);
        awaitOneRootWatch();
        int before = TestServers.clientWatchers(store);

        server.stop();
        await().atMost(SESSION.plus(PROMPTLY)).until(() -> leases.get(0).state() == LeaseState.UNCERTAIN);
        server.restart();
        await().atMost(CONNECTION.plus(PROMPTLY)).until(() -> leases.stream().allMatch(Lease::isValid));
        raw.blockUntilConnected((int) CONNECTION.toSeconds(), TimeUnit.SECONDS);

        assertThat(TestServers.clientRootWatchers(store)).isEqualTo(1);
        assertThat(TestServers.clientWatchers(store)).as("the check after reconnecting set no watch per node")
                .isEqualTo(before);
        assertReportedLostWhenDeleted(leases.get(MANY - 1), "blip-" + (MANY - 1));
        releaseValid(leases);
    }

    private List<Lease> hold(String prefix, int count) throws InterruptedException {
        List<Lease> leases = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            leases.add(store.lock(prefix + i, LONG).acquire());
        }
        return leases;
    }

    private void awaitOneRootWatch() {
        await("one root watch instead of one watch per long-held node").atMost(PROMPTLY)
                .until(() -> TestServers.clientRootWatchers(store) == 1);
    }

    private void assertReportedLostWhenDeleted(Lease lease, String name) throws Exception {
        CountDownLatch lost = new CountDownLatch(1);
        lease.onLost(e -> lost.countDown());
        String parent = ZooKeeperBackend.parentPath(name);
        List<String> nodes = raw.getChildren().forPath(parent);
        assertThat(nodes).as("the holder's node of " + name).hasSize(1);
        raw.delete().forPath(ZKPaths.makePath(parent, nodes.get(0)));
        assertThat(lost.await(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS))
                .as(name + " reported lost before its first renewal check").isTrue();
        assertThat(lease.state()).isEqualTo(LeaseState.LOST);
    }

    private static void releaseValid(List<Lease> leases) {
        for (Lease lease : leases) {
            if (lease.state() != LeaseState.LOST) {
                lease.release();
            }
        }
    }
}
