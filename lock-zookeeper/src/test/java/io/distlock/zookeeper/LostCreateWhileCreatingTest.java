package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

/**
 * S78 of lock-tck/DEFECTS.md: a contender whose create reply is lost in a blip waits behind the node the lost create
 * made, a node of its own live session that nobody uses, while another create of the same store (on another name: a
 * store sends one contender per name at a time, its other threads wait locally) is in flight. The contender deleted such a node on sight only when no create of the store at all was in flight, and the
 * sweep after the reconnect waits for that create too, so under load the node held the name for a live session that
 * holds nothing. The reply is lost for real (a proxy swallows it); the other create is held before it is sent, by the
 * store's create hook, for as long as the test needs it in flight (a real create is in flight only for a moment).
 */
class LostCreateWhileCreatingTest {

    private static final Duration SESSION = Duration.ofSeconds(10);
    /** Long enough for Curator to send the create again once the connection is back. */
    private static final Duration CONNECTION = Duration.ofSeconds(4);
    /** The waiter's safety-net re-check (2 s) with room for a loaded machine: far below the waiter's own bound. */
    private static final Duration PROMPTLY = Duration.ofSeconds(5);
    private static final String IN_FLIGHT = "create-in-flight";

    @Test
    void theLostCreatesNodeGoesWhileAnotherCreateOfTheStoreIsInFlight() throws Exception {
        ExecutorService waiterThread = Executors.newSingleThreadExecutor();
        ExecutorService inFlightThread = Executors.newSingleThreadExecutor(r -> new Thread(r, IN_FLIGHT));
        CountDownLatch sending = new CountDownLatch(1);
        CountDownLatch send = new CountDownLatch(1);
        String chroot = "lost-while-creating";
        try (TestingServer server = TestServers.server();
                OpReplyCutter proxy = new OpReplyCutter(server.getPort());
                LockStore holder = BackendStores.open(TestServers.uri(server.getConnectString(), chroot,
                        SESSION, CONNECTION));
                LockStore store = BackendStores.open(TestServers.uri(proxy.connectString(), chroot,
                        SESSION, CONNECTION));
                CuratorFramework raw = TestServers.rawClient(server.getConnectString(), chroot)) {
            ZooKeeperBackend backend = TestServers.backend(store);
            long session = backend.currentSession();
            backend.createHook = builder -> {
                if (Thread.currentThread().getName().equals(IN_FLIGHT)) {
                    sending.countDown();
                    awaitQuietly(send);
                }
            };
            Lease held = holder.lock("name").acquire();
            String parent = ZooKeeperBackend.parentPath("name");
            String holders = raw.getChildren().forPath(parent).get(0);

            Future<Optional<Lease>> inFlight = inFlightThread.submit(() -> store.lock("other")
                    .tryAcquire(Duration.ofSeconds(60)));
            assertThat(sending.await(10, TimeUnit.SECONDS)).as("the other create is in flight").isTrue();

            proxy.loseReplyOfNext(OpReplyCutter.CREATE2, true);
            Future<Optional<Lease>> waiting = waiterThread.submit(() -> store.lock("name")
                    .tryAcquire(Duration.ofSeconds(20)));
            assertThat(proxy.cut().await(10, TimeUnit.SECONDS)).as("the create's reply was lost").isTrue();
            List<String> afterCut = raw.getChildren().forPath(parent);
            assertThat(afterCut).as("the lost create made its node").hasSize(2);
            String lost = afterCut.get(0).equals(holders) ? afterCut.get(1) : afterCut.get(0);
            proxy.restore();
            // The waiter's new node, made by Curator's second send of the create; the fix may already have deleted
            // the lost one by the time we look, so only the new one is waited for.
            await("the waiter queued again").atMost(CONNECTION.multipliedBy(2))
                    .until(() -> raw.getChildren().forPath(parent).stream()
                            .anyMatch(node -> !node.equals(holders) && !node.equals(lost)));

            held.release();
            long released = System.nanoTime();
            Optional<Lease> got = waiting.get(30, TimeUnit.SECONDS);
            long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released);
            assertThat(got.isPresent() && waitedMs <= PROMPTLY.toMillis())
                    .as("the waiter granted within %s of the holder's release, with another create of its store in"
                            + " flight (granted: %s, after %d ms; nodes now %s, the lost create's %s)", PROMPTLY,
                            got.isPresent(), waitedMs, raw.getChildren().forPath(parent), lost)
                    .isTrue();
            assertThat(raw.getChildren().forPath(parent)).as("nodes once the waiter holds").doesNotContain(lost);
            assertThat(backend.currentSession()).as("the session lived through the blip").isEqualTo(session);
            got.get().release();

            send.countDown();
            inFlight.get(30, TimeUnit.SECONDS).orElseThrow().release();
        } finally {
            send.countDown();
            waiterThread.shutdownNow();
            inFlightThread.shutdownNow();
        }
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
