package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A timed wait is bounded by what the caller asked plus one operation timeout (the URI's connection timeout), also
 * when the server goes away while it waits; the node it queued with is removed in the background once the server is
 * back. Each test owns its server.
 */
class BoundedWaitTest {

    private static final Duration SESSION = Duration.ofSeconds(10);
    private static final Duration CONNECTION = Duration.ofSeconds(4);
    private static final Duration WAIT = Duration.ofSeconds(1);
    /** Scheduling slack on a loaded 2-core machine. */
    private static final Duration SLACK = Duration.ofMillis(1500);

    private TestingServer server;
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @BeforeEach
    void startServer() throws Exception {
        server = TestServers.server();
    }

    @AfterEach
    void stopAll() throws Exception {
        pool.shutdownNow();
        server.close();
    }

    private LockStore open() {
        return LockStore.open(TestServers.uri(server.getConnectString(), "bounded", SESSION, CONNECTION));
    }

    private int nodesOf(String name) throws Exception {
        CuratorFramework raw = TestServers.rawClient(server.getConnectString(), "bounded");
        try {
            return raw.getChildren().forPath(ZooKeeperBackend.parentPath(name)).size();
        } finally {
            raw.close();
        }
    }

    @Test
    void timedWaitEndsWithinItsLimitPlusTheConnectionTimeoutWhenTheServerStopsMidWait() throws Exception {
        try (LockStore holder = open(); LockStore waiter = open()) {
            Lease lease = holder.lock("stopped").acquire();
            Future<Long> elapsed = pool.submit(() -> {
                long start = System.nanoTime();
                String outcome;
                try {
                    Optional<Lease> got = waiter.lock("stopped").tryAcquire(WAIT);
                    assertThat(got).as("the lock is held: nothing to get").isEmpty();
                    outcome = "empty";
                } catch (StoreUnavailableException expected) {
                    outcome = "StoreUnavailableException"; // allowed: the store went away
                }
                long took = System.nanoTime() - start;
                System.out.printf("tryAcquire(%s), connection timeout %s, server stopped mid-wait: %s after %d ms%n",
                        WAIT, CONNECTION, outcome, TimeUnit.NANOSECONDS.toMillis(took));
                return took;
            });
            await("the waiter queued").atMost(Duration.ofSeconds(5)).until(() -> nodesOf("stopped") == 2);

            server.stop();

            long took = elapsed.get(1, TimeUnit.MINUTES);
            assertThat(Duration.ofNanos(took)).as("tryAcquire(%s) with a %s connection timeout", WAIT, CONNECTION)
                    .isLessThanOrEqualTo(WAIT.plus(CONNECTION).plus(SLACK));

            server.restart();
            await("the abandoned node is removed in the background").atMost(SESSION)
                    .ignoreExceptions().until(() -> nodesOf("stopped") == 1);
            lease.release();
        }
    }

    @Test
    void singleAttemptEndsWithinTheConnectionTimeoutWhenTheServerIsGone() throws Exception {
        try (LockStore store = open()) {
            store.lock("gone").tryAcquire().orElseThrow().release();
            server.stop();
            long start = System.nanoTime();
            try {
                assertThat(store.lock("gone").tryAcquire()).isEmpty();
            } catch (StoreUnavailableException expected) {
                // the store is gone: that is what it should say
            }
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("tryAcquire() with the server down")
                    .isLessThanOrEqualTo(CONNECTION.plus(SLACK));
        }
    }
}
