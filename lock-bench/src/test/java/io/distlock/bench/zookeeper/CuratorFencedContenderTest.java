package io.distlock.bench.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.bench.core.RoundTripProxy;
import io.distlock.bench.core.Role;
import io.distlock.bench.core.WireProtocol;
import io.distlock.bench.result.OpCost;
import io.distlock.bench.scenario.CostProbe;
import java.time.Duration;
import java.util.UUID;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.atomic.DistributedAtomicLong;
import org.apache.curator.retry.RetryNTimes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Against an in-process ZooKeeper, the fenced Curator contender counted through the proxy: Curator's mutex pair is
 * three requests, the fenced one adds the counter's read and its versioned write (five requests, one per round
 * trip), the token rises once per acquisition, and both run the counted contended loop.
 */
class CuratorFencedContenderTest {

    private static ZooKeeperBench zookeeper;

    @BeforeAll
    static void start() throws Exception {
        zookeeper = new ZooKeeperBench("zookeeper://{host}:{port}");
    }

    @AfterAll
    static void stop() throws Exception {
        zookeeper.close();
    }

    @Test
    void theTokenAddsTheCountersReadAndVersionedWriteToCuratorsThreeRequests() throws Exception {
        String prefix = "bench-test:" + UUID.randomUUID() + ":";
        try (RoundTripProxy proxy = new RoundTripProxy(zookeeper.server(), Duration.ZERO, WireProtocol.ZOOKEEPER);
             CuratorContender mutex = new CuratorContender(proxy.address());
             CuratorContender fenced = new CuratorContender(proxy.address(), true)) {
            CostProbe probe = new CostProbe(zookeeper, proxy);
            probe.measure(mutex, CostProbe.PAIR, prefix + "m:", Duration.ofMillis(100), Duration.ZERO);
            probe.measure(fenced, CostProbe.PAIR, prefix + "f:", Duration.ofMillis(100), Duration.ZERO);

            OpCost unfenced = probe.measure(mutex, CostProbe.PAIR, prefix + "m:", Duration.ofMillis(300),
                    Duration.ZERO);
            OpCost withToken = probe.measure(fenced, CostProbe.PAIR, prefix + "f:", Duration.ofMillis(300),
                    Duration.ZERO);

            assertThat(fenced.role()).isEqualTo(Role.CURATOR_FENCED);
            assertThat(fenced.name()).isEqualTo("Curator InterProcessMutex + token");
            assertThat(unfenced.requests()).as("create-seq, getChildren, delete").isEqualTo(3.0);
            assertThat(withToken.requests()).as("and the counter's getData and versioned setData").isEqualTo(5.0);
            assertThat(withToken.roundTrips()).as("Curator sends each request on its own").isEqualTo(5.0);
            try (CuratorFramework curator = Zk.connect(zookeeper.server())) {
                long token = new DistributedAtomicLong(curator, CuratorContender.TOKENS + "/"
                        + Zk.nodeName(prefix + "f:pair"), new RetryNTimes(0, 0)).get().postValue();
                assertThat(token).as("one token per acquisition, warm-up included")
                        .isGreaterThanOrEqualTo(withToken.operations() + 1);
            }
        }
    }

    @Test
    void theCountedContendedLoopRunsEightThreadsOverTwoClientsOnOneName() throws Exception {
        String prefix = "bench-test:" + UUID.randomUUID() + ":";
        try (RoundTripProxy proxy = new RoundTripProxy(zookeeper.server(), Duration.ZERO, WireProtocol.ZOOKEEPER);
             CuratorContender fenced = new CuratorContender(proxy.address(), true)) {
            assertThat(CostProbe.appliesTo(CostProbe.CONTENDED, fenced)).isTrue();
            OpCost cost = new CostProbe(zookeeper, proxy).measure(fenced, CostProbe.CONTENDED, prefix,
                    Duration.ofMillis(500), Duration.ZERO);

            assertThat(cost.operations()).isPositive();
            assertThat(cost.requests()).as("at least the uncontended fenced pair's five per acquisition")
                    .isGreaterThanOrEqualTo(5.0);
            assertThat(cost.pushes()).as("waiters are woken by watch events").isPositive();
        }
    }
}
