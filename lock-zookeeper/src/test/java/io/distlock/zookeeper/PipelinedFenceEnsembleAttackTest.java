package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.test.TestingZooKeeperServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Review r7 attacks on the pipelined fence read in an ensemble: the contender lists and reads its parent's fence on one
 * follower, the fence moves through the leader, and the contender's session moves to the other follower, which lags
 * (held by {@link FollowerLag}), before it stamps. Whatever server answered the read, and whatever the lagging one
 * answers a read made again, the stamp is checked by the leader at the version read: the token must exceed the fence
 * written behind the read.
 */
class PipelinedFenceEnsembleAttackTest {

    private static final Duration SESSION = Duration.ofSeconds(10);
    private static final Duration LAG = Duration.ofSeconds(3);
    private static final long AHEAD = 1_000_000_000_000L;
    private static TestingCluster cluster;

    @BeforeAll
    static void startEnsemble() throws Exception {
        List<InstanceSpec> specs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            specs.add(new InstanceSpec(null, TestServers.uniquePort(), TestServers.uniquePort(),
                    TestServers.uniquePort(), true, -1, TestServers.TICK_MS, 0, Map.of("syncLimit", "40")));
        }
        cluster = new TestingCluster(specs);
        cluster.start();
    }

    @AfterAll
    static void stopEnsemble() throws Exception {
        cluster.close();
    }

    @Test
    void aReadOnOneFollowerThenAStampFromALaggingFollowerGoesPastAFenceWrittenInBetween() throws Exception {
        attack(false);
    }

    @Test
    void aReadOnOneFollowerThenAStampFromAFollowerLaggingSinceBeforeTheCreateGoesPastAFenceWrittenInBetween()
            throws Exception {
        attack(true);
    }

    /**
     * A takes a lock on follower S; at its stamp the other follower T lags (since before A's create if
     * {@code lagBeforeCreate}), the leader writes a fence far ahead, and A's client is moved to T only.
     */
    private static void attack(boolean lagBeforeCreate) throws Exception {
        InstanceSpec leader = await("an elected leader").atMost(Duration.ofSeconds(60))
                .until(() -> cluster.getInstances().stream().filter(TestServers::isLeader).findFirst().orElse(null),
                        spec -> spec != null);
        List<TestingZooKeeperServer> followers = cluster.getServers().stream()
                .filter(s -> !s.getInstanceSpec().equals(leader)).toList();
        InstanceSpec first = followers.get(0).getInstanceSpec();
        TestingZooKeeperServer lagging = followers.get(1);
        String chroot = "pipe-ensemble";
        String name = "x-" + UUID.randomUUID();
        String parent = ZooKeeperBackend.parentPath(name);
        try (LockStore store = BackendStores.open(TestServers.uri(first.getConnectString(), chroot, SESSION,
                SESSION)); CuratorFramework raw = TestServers.rawClient(leader.getConnectString(), chroot)) {
            store.lock(name).acquire().release(); // the parent exists
            ZooKeeperBackend backend = TestServers.backend(store);
            AtomicReference<FollowerLag> lag = new AtomicReference<>();
            if (lagBeforeCreate) {
                lag.set(FollowerLag.start(lagging, LAG));
            }
            AtomicLong bumped = new AtomicLong();
            AtomicBoolean once = new AtomicBoolean(true);
            backend.beforeStampHook = () -> {
                if (once.compareAndSet(true, false)) {
                    try {
                        backend.curator().checkExists().forPath(parent); // behind the pipelined read
                        if (lag.get() == null) {
                            lag.set(FollowerLag.start(lagging, LAG));
                        }
                        long value = System.currentTimeMillis() * 1000 + AHEAD;
                        raw.setData().forPath(parent, FenceFloor.encode(value)); // leader and S: committed
                        bumped.set(value);
                        backend.curator().getZookeeperClient().getZooKeeper()
                                .updateServerList(lagging.getInstanceSpec().getConnectString());
                    } catch (Exception e) {
                        throw new IllegalStateException("the attack at the stamp failed", e);
                    }
                }
            };
            try (Lease lease = store.lock(name).tryAcquire(Duration.ofSeconds(20)).orElseThrow()) {
                assertThat(bumped.get()).as("the attack ran").isPositive();
                assertThat(backend.curator().getZookeeperClient().getZooKeeper().toString())
                        .as("A's client was moved to the lagging follower")
                        .contains(":" + lagging.getInstanceSpec().getPort());
                assertThat(lease.fencingToken()).as("the token after a fence of %d written behind our read and a "
                        + "move to a lagging follower", bumped.get()).isGreaterThan(bumped.get());
            } finally {
                if (lag.get() != null) {
                    lag.get().close();
                }
            }
        }
    }
}
