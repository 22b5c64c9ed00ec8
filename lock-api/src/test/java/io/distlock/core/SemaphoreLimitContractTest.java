package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * DistributedSemaphore's contract: "an acquire that states another limit than the one the current holders recorded
 * fails with IllegalStateException". An acquire stating the holders' limit must not fail because a thread of the same
 * store is still in its store call with another limit (a call the store will refuse).
 */
class SemaphoreLimitContractTest {

    private final String space = "mem:limits-" + UUID.randomUUID();
    private final List<LockStore> stores = new ArrayList<>();
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void tearDown() {
        pool.shutdownNow();
        stores.forEach(LockStore::close);
    }

    @Test
    void anAcquireStatingTheHoldersLimitIsNotRefusedForAThreadOfThisStoreStatingAnother() throws Exception {
        LockStore other = LockStore.open(space);
        stores.add(other);
        Lease holdersLimit = other.semaphore("s", 3).acquire(); // the holders recorded 3
        BackendLockStore plain = (BackendLockStore) LockStore.open(space);
        stores.add(plain);
        HookedBackend backend = new HookedBackend(plain.backend());
        BackendLockStore store = new BackendLockStore(backend, "hooked " + space);
        stores.add(store);
        CountDownLatch gate = new CountDownLatch(1);
        backend.permitGate = gate;
        Future<?> wrongLimit = pool.submit(() -> store.semaphore("s", 2).tryAcquire()); // refused by the store
        assertThat(backend.permitEntered.await(20, TimeUnit.SECONDS)).isTrue();
        backend.permitGate = null;
        Optional<Lease> right;
        try {
            right = store.semaphore("s", 3).tryAcquire();
        } finally {
            gate.countDown();
        }
        assertThat(right).as("an acquire stating the holders' limit of 3").isPresent();
        assertThat(wrongLimit).as("refused by the store while the holders of 3 hold")
                .failsWithin(java.time.Duration.ofSeconds(20));
        right.get().release();
        holdersLimit.release();
    }
}
