package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockInfo;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.test.TestingZooKeeperServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A client connected to an ensemble follower that lags behind the leader still sees what other clients did through
 * the leader a moment before: an operator sees a lock just taken, and a try-lock gets a lock just released.
 * ZooKeeper promises a client only its own writes, so reads that decide make the client's server catch up with the
 * leader first. The follower is held behind with {@link FollowerLag}; the ensemble's sync limit is raised so that
 * the leader keeps it meanwhile.
 */
class LaggingFollowerTest {

    private static final Duration SESSION = Duration.ofSeconds(8);
    /** How long the follower lags at the most: the operator's call is made well within it. */
    private static final Duration LAG = Duration.ofSeconds(3);

    private static TestingCluster cluster;

    @BeforeAll
    static void startEnsemble() throws Exception {
        List<InstanceSpec> specs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            // a follower that reads nothing for LAG stays in the ensemble: 40 ticks of 500 ms
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
    void forceReleaseOnALaggingFollowerReleasesALockTakenThroughTheLeader() throws Exception {
        String name = "lagging-" + UUID.randomUUID();
        boolean released = onLaggingFollower(name, operator -> operator.admin().forceRelease(name));
        assertThat(released).as("force-release by an operator on a follower that has not applied the lock yet")
                .isTrue();
    }

    @Test
    void listOnALaggingFollowerShowsALockTakenThroughTheLeader() throws Exception {
        String name = "lagging-" + UUID.randomUUID();
        List<LockInfo> listed = onLaggingFollower(name, operator -> operator.admin().list(name, 10));
        assertThat(listed).as("locks listed by an operator on a follower that has not applied the lock yet")
                .extracting(LockInfo::name).containsExactly(name);
    }

    @Test
    void aTryLockOnALaggingFollowerGetsALockReleasedThroughTheLeader() throws Exception {
        String name = "lagging-" + UUID.randomUUID();
        InstanceSpec leader = leader();
        TestingZooKeeperServer follower = followerOf(leader);
        String chroot = "try-lag";
        try (LockStore holder = storeOn(leader, chroot);
                LockStore other = storeOn(follower.getInstanceSpec(), chroot)) {
            Lease held = holder.lock(name).acquire();
            assertThat(other.admin().list(name, 10)).as("the follower has applied the lock").hasSize(1);
            try (FollowerLag lag = FollowerLag.start(follower, LAG)) {
                held.release();
                Optional<Lease> got = other.lock(name).tryAcquire(Duration.ZERO);
                assertThat(got).as("a zero-wait try-lock, on a follower that has not applied the release yet, of a "
                        + "lock released before it began").isPresent();
                got.get().release();
            }
        }
    }

    private static InstanceSpec leader() {
        return await("an elected leader").atMost(Duration.ofSeconds(60))
                .until(() -> cluster.getInstances().stream().filter(TestServers::isLeader).findFirst().orElse(null),
                        spec -> spec != null);
    }

    private static TestingZooKeeperServer followerOf(InstanceSpec leader) {
        return cluster.getServers().stream().filter(s -> !s.getInstanceSpec().equals(leader)).findFirst()
                .orElseThrow();
    }

    /** A store whose client talks to {@code server} only, under {@code chroot}. */
    private static LockStore storeOn(InstanceSpec server, String chroot) {
        return LockStore.open(TestServers.uri(server.getConnectString(), chroot, SESSION, SESSION));
    }

    /** What the operator sees, pinned to a follower that lags, of lock {@code name} taken through the leader. */
    private static <T> T onLaggingFollower(String name, OperatorCall<T> call) throws Exception {
        InstanceSpec leader = leader();
        TestingZooKeeperServer follower = followerOf(leader);
        String chroot = "admin-lag";
        try (LockStore holder = storeOn(leader, chroot);
                LockStore operator = storeOn(follower.getInstanceSpec(), chroot)) {
            operator.admin().list("", 1); // the operator's session is open on the follower before it lags
            try (FollowerLag lag = FollowerLag.start(follower, LAG)) {
                holder.lock(name).acquire();
                return call.on(operator);
            }
        }
    }

    /** One admin call of the operator's store. */
    @FunctionalInterface
    private interface OperatorCall<T> {
        T on(LockStore operator) throws Exception;
    }
}
