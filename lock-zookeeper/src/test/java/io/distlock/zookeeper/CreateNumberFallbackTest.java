package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;

/**
 * Review of S78 (r13-zkstuckreview): {@code lostCreate} judges a node of our session by the create number in its
 * name; a name without our number (an older naming, another store's id) must still wait until every create of the
 * store has ended, and a name with our number must wait for that create alone. Checked on real nodes and stats.
 */
class CreateNumberFallbackTest {

    private static final Duration SESSION = Duration.ofSeconds(10);
    private static final Duration CONNECTION = Duration.ofSeconds(4);
    private static final String IN_FLIGHT = "create-in-flight";

    @Test
    void aNameWithoutOurNumberWaitsForEveryCreateOfTheStoreAndOursForItsOwn() throws Exception {
        ExecutorService inFlightThread = Executors.newSingleThreadExecutor(r -> new Thread(r, IN_FLIGHT));
        CountDownLatch sending = new CountDownLatch(1);
        CountDownLatch send = new CountDownLatch(1);
        try (TestingServer server = TestServers.server();
                LockStore store = BackendStores.open(TestServers.uri(server.getConnectString(), "numbers",
                        SESSION, CONNECTION))) {
            ZooKeeperBackend backend = TestServers.backend(store);
            Lease held = store.lock("name").acquire(); // makes the parent; our create 1 has ended
            String parent = ZooKeeperBackend.parentPath("name");
            String ours = parent + "/" + backend.client.getChildren().forPath(parent).get(0);
            long ourNumber = backend.createNumber(ZooKeeperBackend.nodeName(ours));
            assertThat(ourNumber).as("the number in our node's name %s", ours).isPositive();
            String foreignId = "0123456789abcdef".equals(ZooKeeperBackend.nodeName(ours).substring(0, 16))
                    ? "fedcba9876543210" : "0123456789abcdef";
            String[] names = {"_c_5f1e-lock-", "lock-", foreignId + "-1-lock-", ZooKeeperBackend.nodeName(ours)
                    .substring(0, 16) + "-lock-"};
            String[] made = new String[names.length];
            for (int i = 0; i < names.length; i++) {
                made[i] = backend.client.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
                        .forPath(parent + "/" + names[i]);
                assertThat(backend.createNumber(ZooKeeperBackend.nodeName(made[i])))
                        .as("the number read from %s", made[i]).isZero();
            }
            backend.createHook = builder -> {
                if (Thread.currentThread().getName().equals(IN_FLIGHT)) {
                    sending.countDown();
                    awaitQuietly(send);
                }
            };
            Future<Optional<Lease>> inFlight = inFlightThread.submit(() -> store.lock("other")
                    .tryAcquire(Duration.ofSeconds(60)));
            assertThat(sending.await(10, TimeUnit.SECONDS)).as("the other create is in flight").isTrue();
            for (String path : made) {
                assertThat(backend.lostCreate(path, stat(backend, path)))
                        .as("%s (no number of ours) judged while another create is in flight", path).isFalse();
            }
            assertThat(backend.lostCreate(ours, stat(backend, ours))).as("our held node judged lost").isFalse();
            held.release();
            send.countDown();
            inFlight.get(30, TimeUnit.SECONDS).orElseThrow().release();
            for (String path : made) {
                assertThat(backend.lostCreate(path, stat(backend, path)))
                        .as("%s (no number of ours, nobody uses it) once every create ended", path).isTrue();
            }
        } finally {
            send.countDown();
            inFlightThread.shutdownNow();
        }
    }

    private static Stat stat(ZooKeeperBackend backend, String path) throws Exception {
        return backend.client.checkExists().forPath(path);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            if (!latch.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the held create was never let go");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
