package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LeaseState;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The leader of a 3-node ensemble dies while a lock is held and two other clients wait. The holder is connected to
 * that very leader, so it is cut off too: it reconnects to a survivor within its session timeout and keeps its lease,
 * the lock stays exclusive, and the waiters get it in turn once it is released.
 */
class LeaderFailoverTest {

    private static final Duration SESSION = Duration.ofSeconds(8);
    private static final Duration CONNECTION = Duration.ofSeconds(15);
    private static final Duration PROMPTLY = Duration.ofSeconds(3);
    private static final String NAME = "failover";

    private TestingCluster cluster;
    private final List<LockStore> stores = new ArrayList<>();
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @BeforeEach
    void startEnsemble() throws Exception {
        cluster = TestServers.cluster(3);
        cluster.start();
    }

    @AfterEach
    void stopEnsemble() throws Exception {
        pool.shutdownNow();
        stores.forEach(LockStore::close);
        cluster.close();
    }

    private LockStore open() {
        LockStore store = BackendStores.open(
                TestServers.uri(cluster.getConnectString(), "failover", SESSION, CONNECTION));
        stores.add(store);
        return store;
    }

    @Test
    void lockStaysExclusiveAndWaitersProceedWhenTheLeaderDies() throws Exception {
        InstanceSpec leader = await("a leader").atMost(CONNECTION).until(this::leader, l -> l != null);
        LockStore holder = holderConnectedTo(leader);
        Lease lease = holder.lock(NAME).acquire();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        List<Future<Long>> waiters = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            LockStore store = open();
            waiters.add(pool.submit(() -> {
                try (Lease mine = store.lock(NAME).acquire()) {
                    if (inside.incrementAndGet() > 1) {
                        overlaps.incrementAndGet();
                    }
                    long token = mine.fencingToken();
                    inside.decrementAndGet();
                    return token;
                }
            }));
        }
        CuratorFramework raw = TestServers.rawClient(cluster.getConnectString(), "failover");
        try {
            await("both waiters queued").atMost(PROMPTLY)
                    .until(() -> raw.getChildren().forPath(ZooKeeperBackend.parentPath(NAME)).size() == 3);
        } finally {
            raw.close();
        }

        assertThat(cluster.killServer(leader)).isTrue();
        await("a new leader among the survivors").atMost(CONNECTION)
                .until(this::leader, l -> l != null && !l.equals(leader));

        await("the holder's session survived the election").atMost(SESSION.plus(PROMPTLY))
                .until(lease::state, s -> s == LeaseState.HELD);
        assertThat(waiters).as("still excluded after the failover").noneMatch(Future::isDone);
        assertThat(open().lock(NAME).tryAcquire(Duration.ofMillis(500))).as("a fourth client sees it held").isEmpty();

        lease.release();
        List<Long> tokens = new ArrayList<>();
        for (Future<Long> waiter : waiters) {
            tokens.add(waiter.get(CONNECTION.plus(PROMPTLY).toMillis(), TimeUnit.MILLISECONDS));
        }
        assertThat(overlaps).hasValue(0);
        assertThat(tokens).allMatch(t -> t > lease.fencingToken()).doesNotHaveDuplicates();
    }

    /** A store whose session is connected to {@code server}, so that killing it cuts the holder off too. */
    private LockStore holderConnectedTo(InstanceSpec server) throws Exception {
        for (int attempt = 0; attempt < 30; attempt++) {
            LockStore store = open();
            if (server.equals(cluster.findConnectionInstance(
                    TestServers.backend(store).curator().getZookeeperClient().getZooKeeper()))) {
                return store;
            }
        }
        throw new AssertionError("no client connected to " + server + " in 30 tries");
    }

    private InstanceSpec leader() {
        for (InstanceSpec spec : cluster.getInstances()) {
            if (TestServers.isLeader(spec)) {
                return spec;
            }
        }
        return null;
    }
}
