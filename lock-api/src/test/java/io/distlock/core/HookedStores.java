package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LockStore;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * One attack test's stores over a fresh {@code mem:} space: hooked ones, whose backend the test steers through
 * {@link #backend}, and plain ones beside them as other clients; with the test's thread pool, all closed together,
 * and the check that a store kept nothing of its names once the test is over.
 */
final class HookedStores implements AutoCloseable {

    private final String space;
    private final List<LockStore> stores = new ArrayList<>();
    final ExecutorService pool = Executors.newCachedThreadPool();
    /** The backend of the last store {@link #hooked()} made. */
    HookedBackend backend;

    HookedStores(String spacePrefix) {
        this.space = "mem:" + spacePrefix + "-" + UUID.randomUUID();
    }

    /** A store over the space whose backend is a fresh {@link HookedBackend}, which {@link #backend} then names. */
    BackendLockStore hooked() {
        BackendLockStore plain = (BackendLockStore) LockStore.open(space);
        stores.add(plain);
        backend = new HookedBackend(plain.backend());
        BackendLockStore store = new BackendLockStore(backend, "hooked " + space);
        stores.add(store);
        return store;
    }

    /** A plain store over the same space: another client. */
    LockStore other() {
        LockStore store = LockStore.open(space);
        stores.add(store);
        return store;
    }

    /** No name state, queued waiter or loss kept for a grant is left in {@code store}. */
    static void assertNothingLeft(BackendLockStore store) {
        assertThat(store.names.locksInUse()).as("lock states").isZero();
        assertThat(store.names.semaphoresInUse()).as("semaphore states").isZero();
        assertThat(store.names.queued()).as("queued").isZero();
        assertThat(store.names.lossesKept()).as("kept losses").isZero();
    }

    @Override
    public void close() {
        pool.shutdownNow();
        stores.forEach(LockStore::close);
    }
}
