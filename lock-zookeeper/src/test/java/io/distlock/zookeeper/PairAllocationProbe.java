package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.ThreadMXBean;
import io.distlock.Lease;
import io.distlock.LockStore;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Not a test of speed (nothing is asserted about it): prints what one uncontended acquire+release pair allocates on
 * the calling thread and costs it in CPU, against an in-process server, so that allocation on the happy path can be
 * profiled (run it under JFR: {@code -DargLine=-XX:StartFlightRecording=filename=pair.jfr,settings=profile}). Tagged
 * {@code slow}; run with
 * {@code ./mvnw -pl lock-zookeeper verify -Dsurefire.excludedGroups= -Dtest=PairAllocationProbe}.
 */
@Tag("slow")
class PairAllocationProbe {

    private static final int WARMUP_PAIRS = 3000;
    private static final int MEASURED_PAIRS = 5000;

    @Test
    void printPerPair() throws Exception {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (TestingServer server = TestServers.server();
                LockStore store = LockStore.open(TestServers.uri(server.getConnectString(), "probe",
                        Duration.ofSeconds(10), Duration.ofSeconds(10)))) {
            pairs(store, WARMUP_PAIRS);
            long bytes = threads.getCurrentThreadAllocatedBytes();
            long cpu = threads.getCurrentThreadCpuTime();
            pairs(store, MEASURED_PAIRS);
            long perPairBytes = (threads.getCurrentThreadAllocatedBytes() - bytes) / MEASURED_PAIRS;
            long perPairCpu = (threads.getCurrentThreadCpuTime() - cpu) / MEASURED_PAIRS / 1000;
            System.out.printf("pair on the calling thread: %,d B, %,d us CPU%n", perPairBytes, perPairCpu);
        }
    }

    private static void pairs(LockStore store, int count) throws Exception {
        for (int i = 0; i < count; i++) {
            try (Lease lease = store.lock("probe").acquire()) {
                assertThat(lease.fencingToken()).isPositive();
            }
        }
    }
}
