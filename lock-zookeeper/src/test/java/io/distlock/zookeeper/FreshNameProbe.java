package io.distlock.zookeeper;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Not a test of speed (nothing is asserted): prints what a try-lock costs on the wire ({@link RoundTripCounter}) for a
 * fresh name, a name released here within {@link EmptiedParents#DELAY} and a name whose parent another client made,
 * then per block of 1,000 fresh names held at once (10 blocks, {@code -Dprobe.blocks}) the time and the round trips,
 * requests and watch events per acquire, to show whether any of it grows with the leases already held; last, Curator's
 * {@code InterProcessMutex} on fresh names, for comparison (issue #33). Tagged {@code slow}; run with {@code ./mvnw
 * -pl lock-zookeeper -am verify -Dsurefire.excludedGroups= -Dtest=FreshNameProbe
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("slow")
class FreshNameProbe {

    @Test
    void probe() throws Exception {
        try (TestingServer server = TestServers.server();
                RoundTripCounter counter = new RoundTripCounter(server.getPort());
                LockStore store = BackendStores.open(TestServers.uri(counter.connectString(), "fresh",
                        Duration.ofSeconds(10), Duration.ofSeconds(10)))) {
            store.lock("warm").tryAcquire().orElseThrow().release();
            List<Lease> held = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                int t = counter.trace().length();
                long rt = counter.roundTrips();
                long rq = counter.requests();
                held.add(store.lock("fresh-" + i).tryAcquire().orElseThrow());
                System.out.printf("PROBE fresh: %d rt %d rq:%s%n", counter.roundTrips() - rt, counter.requests() - rq,
                        counter.trace().substring(t));
            }
            for (int i = 0; i < 3; i++) {
                held.get(i).release();
            }
            for (int i = 0; i < 3; i++) {
                int t = counter.trace().length();
                long rt = counter.roundTrips();
                long rq = counter.requests();
                held.add(store.lock("fresh-" + i).tryAcquire().orElseThrow());
                System.out.printf("PROBE reused within delay: %d rt %d rq:%s%n", counter.roundTrips() - rt,
                        counter.requests() - rq, counter.trace().substring(t));
            }
            CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "fresh");
            for (int i = 0; i < 3; i++) {
                raw.create().forPath(ZooKeeperBackend.parentPath("there-" + i));
            }
            for (int i = 0; i < 3; i++) {
                int t = counter.trace().length();
                long rt = counter.roundTrips();
                long rq = counter.requests();
                held.add(store.lock("there-" + i).tryAcquire().orElseThrow());
                System.out.printf("PROBE parent there, not released here: %d rt %d rq:%s%n",
                        counter.roundTrips() - rt, counter.requests() - rq, counter.trace().substring(t));
            }
            // scale: 10,000 fresh names held at once, 1 thread; time and requests per block of 1,000
            int blocks = Integer.getInteger("probe.blocks", 10);
            for (int b = 0; b < blocks; b++) {
                long rt = counter.roundTrips();
                long rq = counter.requests();
                long nt = counter.notifications();
                long start = System.nanoTime();
                for (int i = 0; i < 1000; i++) {
                    held.add(store.lock("many-" + b + "-" + i).tryAcquire().orElseThrow());
                }
                System.out.printf("PROBE block %d: %.0f ms, %.2f rt, %.2f rq, %.2f notifications per acquire%n", b,
                        (System.nanoTime() - start) / 1e6, (counter.roundTrips() - rt) / 1000.0,
                        (counter.requests() - rq) / 1000.0, (counter.notifications() - nt) / 1000.0);
            }
            CuratorFramework curator = TestServers.rawClient(counter.connectString(), "curator");
            for (int i = 0; i < 3; i++) {
                int t = counter.trace().length();
                long rt = counter.roundTrips();
                long rq = counter.requests();
                InterProcessMutex mutex = new InterProcessMutex(curator, "/c/fresh-" + i);
                mutex.acquire(0, java.util.concurrent.TimeUnit.SECONDS);
                System.out.printf("PROBE curator fresh: %d rt %d rq:%s%n", counter.roundTrips() - rt,
                        counter.requests() - rq, counter.trace().substring(t));
            }
            raw.close();
            curator.close();
        }
    }
}
