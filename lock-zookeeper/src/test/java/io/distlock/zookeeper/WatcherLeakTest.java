package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import io.distlock.tck.fixture.ClassFixture;
import java.time.Duration;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A wait that ends without its predecessor changing (a timeout) takes its watch with it: the client's watch manager
 * does not grow with every timed-out attempt on a lock (or a full semaphore) that stays held.
 */
class WatcherLeakTest {

    private static final int ATTEMPTS = 40;

    @RegisterExtension
    static final ClassFixture<TestingServer> server = new ClassFixture<>(TestServers::server);



    private static LockStore open() {
        return BackendStores.open(TestServers.uri(server.get().getConnectString(), "watchers", Duration.ofSeconds(6),
                Duration.ofSeconds(5)));
    }

    @Test
    void timedOutWaitsLeaveNoWatchersBehind() throws Exception {
        try (LockStore holder = open(); LockStore waiter = open()) {
            Lease lease = holder.lock("held-long").acquire();
            for (int i = 0; i < ATTEMPTS; i++) {
                assertThat(waiter.lock("held-long").tryAcquire(Duration.ofMillis(20))).isEmpty();
            }
            await("the timed-out waits' watchers are removed").atMost(Duration.ofSeconds(5))
                    .until(() -> TestServers.clientWatchers(waiter) == 0);
            lease.release();
        }
    }

    @Test
    void timedOutPermitWaitsLeaveNoWatchersBehind() throws Exception {
        try (LockStore holder = open(); LockStore waiter = open()) {
            Lease one = holder.semaphore("full", 2).acquire();
            Lease two = holder.semaphore("full", 2).acquire();
            for (int i = 0; i < ATTEMPTS; i++) {
                // the first waiter watches both holders, with both watches sent at once
                assertThat(waiter.semaphore("full", 2).tryAcquire(Duration.ofMillis(20))).isEmpty();
            }
            await("the timed-out waits' watchers are removed").atMost(Duration.ofSeconds(5))
                    .until(() -> TestServers.clientWatchers(waiter) == 0);
            one.release();
            two.release();
        }
    }

    @Test
    void aWaitThatEndsWithTheLockLeavesNoWatcherBehind() throws Exception {
        try (LockStore holder = open(); LockStore waiter = open()) {
            Lease lease = holder.lock("handed-over").acquire();
            assertThat(waiter.lock("handed-over").tryAcquire(Duration.ofMillis(50))).isEmpty();
            lease.release();
            waiter.lock("handed-over").tryAcquire(Duration.ofSeconds(5)).orElseThrow().release();
            await().atMost(Duration.ofSeconds(5)).until(() -> TestServers.clientWatchers(waiter) == 0);
        }
    }
}
