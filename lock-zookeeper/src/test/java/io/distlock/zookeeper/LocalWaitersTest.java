package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.tck.fixture.ClassFixture;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * 200 threads on one lock, through one store and through two: every one gets the lock exactly once, in a strict token
 * order, and the server never sees more contender nodes than there are stores, because each store queues its own
 * waiters locally and sends one contender at a time (Curator's recipe would create 200 nodes).
 */
class LocalWaitersTest {

    private static final int THREADS = 200;

    @RegisterExtension
    static final ClassFixture<ChrootedServer> zk = new ClassFixture<>(() -> ChrootedServer.start("waiters"));



    @ParameterizedTest(name = "200 threads through {0} store(s)")
    @ValueSource(ints = {1, 2})
    void twoHundredLocalWaitersCostTheServerOneNodePerStore(int storeCount) throws Exception {
        int threadsPerStore = THREADS / storeCount;
        String name = "crowded-" + storeCount;
        String parent = ZooKeeperBackend.parentPath(name);
        List<LockStore> stores = new ArrayList<>();
        AtomicInteger creates = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger mostNodes = new AtomicInteger();
        AtomicInteger samples = new AtomicInteger();
        Thread sampler = new Thread(() -> {
            while (!done.get()) {
                try {
                    mostNodes.accumulateAndGet(zk.get().raw().getChildren().forPath(parent).size(), Math::max);
                    samples.incrementAndGet();
                } catch (KeeperException.NoNodeException notYet) {
                    samples.incrementAndGet();
                } catch (Exception e) {
                    throw new IllegalStateException("sampling the lock's nodes failed", e);
                }
            }
        }, "node-sampler");
        try {
            for (int s = 0; s < storeCount; s++) {
                LockStore store = zk.get().open();
                TestServers.backend(store).createHook = builder -> creates.incrementAndGet();
                stores.add(store);
            }
            sampler.start();
            CountDownLatch go = new CountDownLatch(1);
            List<Long> tokens = java.util.Collections.synchronizedList(new ArrayList<>());
            AtomicInteger counter = new AtomicInteger();
            List<Future<?>> workers = new ArrayList<>();
            for (LockStore store : stores) {
                for (int t = 0; t < threadsPerStore; t++) {
                    workers.add(pool.submit(() -> {
                        go.await();
                        try (Lease lease = store.lock(name).acquire()) {
                            int seen = counter.get(); // read-modify-write in two steps: overlaps would lose updates
                            tokens.add(lease.fencingToken());
                            counter.set(seen + 1);
                        }
                        return null;
                    }));
                }
            }
            go.countDown();
            for (Future<?> worker : workers) {
                worker.get(3, TimeUnit.MINUTES);
            }
            done.set(true);
            sampler.join(TimeUnit.SECONDS.toMillis(30));

            assertThat(counter.get()).as("every thread ran its critical section once").isEqualTo(THREADS);
            assertThat(tokens).hasSize(THREADS).isSorted().doesNotHaveDuplicates();
            // one create per acquisition; each store's first may be tried twice, before and after making the parent
            assertThat(creates.get()).as("one node per acquisition, none for queuing")
                    .isBetween(THREADS, THREADS + storeCount);
            assertThat(samples.get()).as("the sampler looked").isPositive();
            assertThat(mostNodes.get()).as("contender nodes at once, never more than the stores")
                    .isBetween(1, storeCount);
            System.out.printf("200 local waiters through %d store(s): %d node samples, at most %d nodes at once, "
                    + "%d creates%n", storeCount, samples.get(), mostNodes.get(), creates.get());
        } finally {
            done.set(true);
            pool.shutdownNow();
            stores.forEach(LockStore::close);
        }
    }
}
