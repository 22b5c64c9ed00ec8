package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.DistributedLock;
import io.distlock.DistributedSemaphore;
import io.distlock.Lease;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A waiter interrupted while queued at a name's gate leaves the queue as it leaves with its InterruptedException,
 * while the holder still holds: otherwise every interrupted acquire of a long-held lock (a leader's) leaves its
 * waiter and thread behind until the holder releases.
 */
class InterruptedWaiterQueueTest {

    private final List<LockStore> stores = new ArrayList<>();

    private BackendLockStore store() {
        BackendLockStore plain = (BackendLockStore) LockStore.open("mem:interrupted-" + UUID.randomUUID());
        stores.add(plain);
        BackendLockStore store = new BackendLockStore(new CountingPermitBackend(plain.backend()), "counted");
        stores.add(store);
        return store;
    }

    @AfterEach
    void closeStores() {
        stores.forEach(LockStore::close);
    }

    @Test
    void anInterruptedLockWaiterLeavesTheQueueWhileTheLockIsStillHeld() throws Exception {
        BackendLockStore store = store();
        DistributedLock lock = store.lock("held");
        Lease holder = lock.acquire();
        for (int i = 0; i < 3; i++) {
            interruptWhileQueued(store, () -> lock.acquire());
        }
        assertThat(store.names.queued()).as("waiters queued after their interrupts, the holder still holding")
                .isZero();
        holder.release();
    }

    @Test
    void anInterruptedPermitWaiterLeavesTheQueueWhileThePermitsAreStillHeld() throws Exception {
        BackendLockStore store = store();
        DistributedSemaphore semaphore = store.semaphore("held", 1);
        Lease holder = semaphore.acquire();
        for (int i = 0; i < 3; i++) {
            interruptWhileQueued(store, () -> semaphore.acquire());
        }
        assertThat(store.names.queued()).as("waiters queued after their interrupts, the holder still holding")
                .isZero();
        holder.release();
    }

    /** Runs {@code acquire} on a new thread, interrupts it once it queued, and waits for its InterruptedException. */
    private static void interruptWhileQueued(BackendLockStore store, Acquire acquire) throws Exception {
        int before = store.names.queued();
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread waiter = new Thread(() -> {
            try {
                Lease unexpected = acquire.run();
                unexpected.release();
                outcome.complete(null);
            } catch (Throwable t) {
                outcome.complete(t);
            }
        });
        waiter.start();
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> store.names.queued() > before);
        waiter.interrupt();
        assertThat(outcome.get(20, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
        waiter.join(TimeUnit.SECONDS.toMillis(20));
    }

    /** One acquire that may be interrupted. */
    @FunctionalInterface
    private interface Acquire {
        Lease run() throws InterruptedException;
    }
}
