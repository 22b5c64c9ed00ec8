package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.DistributedSemaphore;
import io.distlock.Lease;
import io.distlock.LockLostException;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import io.distlock.tck.fixture.ClassFixture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** ZooKeeper semaphores: a permit node deleted behind its holder's back, FIFO hand-over through the watch chain. */
class ZooKeeperPermitsTest {

    private static final Duration SESSION = Duration.ofSeconds(4);
    @RegisterExtension
    static final ClassFixture<TestingServer> server = new ClassFixture<>(TestServers::server);
    private final List<LockStore> stores = new ArrayList<>();



    @AfterEach
    void closeStores() {
        stores.forEach(LockStore::close);
    }

    private LockStore client() {
        LockStore store = BackendStores.open(
                TestServers.uri(server.get().getConnectString(), "permits", SESSION, SESSION));
        stores.add(store);
        return store;
    }

    private List<String> nodes(String name) throws Exception {
        CuratorFramework raw = TestServers.backend(stores.get(0)).curator();
        String parent = ZooKeeperPermits.parentPath(name);
        return raw.checkExists().forPath(parent) == null ? List.of() : raw.getChildren().forPath(parent);
    }

    /** Node names as made now (store id, create number), bare, and with Curator's protected prefix (earlier). */
    @Test
    void theLimitIsReadFromANodeNameWithEitherPrefix() {
        assertThat(ZooKeeperPermits.limitOf("0f1e2d3c4b5a6978-17-p3-lock-0000000007")).isEqualTo(3);
        assertThat(ZooKeeperPermits.limitOf("p3-lock-0000000007")).isEqualTo(3);
        assertThat(ZooKeeperPermits.limitOf("_c_0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0-p12-lock-0000000007"))
                .isEqualTo(12);
        assertThat(ZooKeeperPermits.limitOf("lock-0000000007")).as("a lock's node").isZero();
        assertThat(ZooKeeperPermits.limitOf("px-lock-0000000007")).as("no number").isZero();
        assertThat(ZooKeeperPermits.limitOf("p-lock-0000000007")).as("no digits").isZero();
    }

    @Test
    void aPermitNodeDeletedBehindItsHoldersBackIsLost() throws Exception {
        LockStore store = client();
        Lease lease = store.semaphore("deleted", 2).acquire();
        CountDownLatch lost = new CountDownLatch(1);
        lease.onLost(e -> lost.countDown());
        CuratorFramework raw = TestServers.backend(store).curator();
        String parent = ZooKeeperPermits.parentPath("deleted");
        for (String node : raw.getChildren().forPath(parent)) {
            raw.delete().forPath(parent + "/" + node);
        }
        assertThat(lost.await(30, TimeUnit.SECONDS)).as("onLost fired").isTrue();
        assertThatThrownBy(lease::release).isInstanceOf(LockLostException.class);
        assertThat(client().semaphore("deleted", 2).availablePermits()).isEqualTo(2);
    }

    /**
     * Counted at the server, so nothing here depends on speed: a permit that is free costs its create, the listing
     * sent behind it, the read and the versioned write of the semaphore's fence (its token, {@link FenceFloor}) and its
     * delete. A holding mark is only for a waiter that may watch the node, and a single
     * attempt's create and listing already read past every release made before it (a write goes through the
     * leader), so it needs no listing and no sync of its own first.
     */
    @Test
    void aFreePermitCostsItsCreateItsListingItsFenceAndItsDelete() throws Exception {
        LockStore store = client();
        DistributedSemaphore semaphore = store.semaphore("requests", 2);
        semaphore.acquire().release(); // the parent exists from here on
        int pairs = 50;
        long before = TestServers.requestsReceived(server.get());
        for (int i = 0; i < pairs; i++) {
            semaphore.acquire().release();
        }
        long waiting = TestServers.requestsReceived(server.get()) - before;
        before = TestServers.requestsReceived(server.get());
        for (int i = 0; i < pairs; i++) {
            semaphore.tryAcquire().orElseThrow().release();
        }
        long single = TestServers.requestsReceived(server.get()) - before;
        // a few more than 6 per pair for the session's pings (the release reads its node's owner before the delete)
        assertThat(waiting).as("requests for %d acquire()/release() pairs", pairs).isLessThanOrEqualTo(6L * pairs + 5);
        assertThat(single).as("requests for %d tryAcquire()/release() pairs", pairs)
                .isLessThanOrEqualTo(6L * pairs + 5);
    }

    @Test
    void waitersGetPermitsInTheOrderTheyQueued() throws Exception {
        String name = "fifo";
        LockStore holderStore = client();
        List<Lease> holders = new ArrayList<>(List.of(holderStore.semaphore(name, 2).acquire(),
                client().semaphore(name, 2).acquire()));
        List<Integer> order = Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<Lease>> waiters = new ArrayList<>();
        int count = 4;
        // a thread per waiter: each blocks in acquire(), and the common pool may have a single thread (2 cores)
        ExecutorService threads = Executors.newFixedThreadPool(count);
        try {
            queueAndHandOver(name, holders, order, waiters, count, threads);
        } finally {
            threads.shutdownNow();
        }
        assertThat(order).containsExactly(0, 1, 2, 3);
        holders.forEach(Lease::release);
    }

    private void queueAndHandOver(String name, List<Lease> holders, List<Integer> order,
            List<CompletableFuture<Lease>> waiters, int count, ExecutorService threads) throws Exception {
        for (int i = 0; i < count; i++) {
            LockStore store = client();
            int id = i;
            waiters.add(CompletableFuture.supplyAsync(() -> {
                try {
                    Lease lease = store.semaphore(name, 2).acquire();
                    order.add(id);
                    return lease;
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }, threads));
            int queued = 3 + i;
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> nodes(name).size() == queued);
        }
        // hand over one permit at a time, releasing the holders in the opposite order of their queueing
        for (int i = 0; i < count; i++) {
            long before = System.nanoTime();
            holders.remove(holders.size() - 1).release();
            Lease next = waiters.get(i).get(30, TimeUnit.SECONDS);
            System.out.println("ZooKeeperPermitsTest: hand-over " + i + " took "
                    + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - before) + " ms");
            holders.add(0, next);
        }
    }
}
