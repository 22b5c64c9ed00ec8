package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Design rule 12 (issue #33, "names used once"): lock and semaphore names used once leave nothing in ZooKeeper after
 * a bounded time, and a name used again after its parent went is still granted a larger token (the fence floor of
 * kit §19: the server clock in microseconds). The parents are CONTAINER nodes, which the server deletes once emptied
 * at its container check; this server checks every {@value #CHECK_MS} ms instead of every minute.
 */
class NamesUsedOnceTest {

    private static final int CHECK_MS = 250;
    private static final String CHROOT = "used-once";
    private static final Duration BOUND = Duration.ofSeconds(20);

    private static AutoCloseable containerCheck;
    private static TestingServer server;

    @BeforeAll
    static void start() throws Exception {
        containerCheck = TestServers.containerCheck(Duration.ofMillis(CHECK_MS));
        server = TestServers.server();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        containerCheck.close();
    }

    @Test
    void twoHundredNamesUsedOnceLeaveNothingAndTheirTokensKeepGrowing() throws Exception {
        String uri = TestServers.uri(server.getConnectString(), CHROOT, Duration.ofSeconds(6), Duration.ofSeconds(4));
        List<String> names = new ArrayList<>();
        List<Long> tokens = new ArrayList<>();
        try (LockStore store = LockStore.open(uri);
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), CHROOT)) {
            for (int i = 0; i < 200; i++) {
                String name = "once:" + i;
                names.add(name);
                Lease lease = i % 2 == 0 ? store.lock(name).acquire() : store.semaphore(name, 2).acquire();
                tokens.add(lease.fencingToken());
                if (i == 199) {
                    assertThat(count(raw, name)).as("state of a held name: the count sees it").isPositive();
                }
                lease.release();
            }

            await().atMost(BOUND).until(() -> names.stream().mapToLong(name -> count(raw, name)).sum() == 0);
            await().atMost(BOUND).until(() -> raw.checkExists().forPath(ZooKeeperBackend.ROOT) == null
                    && raw.checkExists().forPath(ZooKeeperPermits.ROOT) == null);

            for (int i = 0; i < names.size(); i += 50) {
                String name = names.get(i);
                Lease again = i % 2 == 0 ? store.lock(name).acquire() : store.semaphore(name, 2).acquire();
                assertThat(again.fencingToken()).as("%s used again after its parent went", name)
                        .isGreaterThan(tokens.get(i));
                again.release();
            }
        }
    }

    private static long count(CuratorFramework raw, String name) {
        try {
            return ZooKeeperNameLeftovers.of(raw, name);
        } catch (Exception e) {
            throw new IllegalStateException("could not count what is left of " + name, e);
        }
    }
}
