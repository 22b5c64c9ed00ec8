package io.distlock.bench.distlock;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.DistributedSemaphore;
import io.distlock.bench.core.Held;
import io.distlock.bench.core.LockClient;
import io.distlock.bench.core.Role;
import io.distlock.bench.core.SemaphoreContender;
import java.util.concurrent.ConcurrentHashMap;

/**
 * distlock's {@link DistributedSemaphore}, opened through {@link LockStore#open(String)} with default options
 * (30 s lease per
 * permit, auto-renew on), as an application would. Each client is one {@link LockStore}; one semaphore object per
 * name per client is shared by that client's threads.
 */
public final class DistlockSemaphoreContender extends SemaphoreContender {

    /** The name in the report. */
    public static final String NAME = "distlock Semaphore";

    private final String uri;

    /** A contender for the store at {@code uri}, {@code permits} permits per name. */
    public DistlockSemaphoreContender(String uri, int permits) {
        super(NAME, Role.DISTLOCK, permits);
        this.uri = uri;
    }

    @Override
    protected LockClient openClient() {
        return new Client(LockStore.open(uri), permits());
    }

    /** One distlock store as a benchmark client. */
    private static final class Client implements LockClient {
        private final LockStore store;
        private final int permits;
        private final ConcurrentHashMap<String, DistributedSemaphore> semaphores = new ConcurrentHashMap<>();

        Client(LockStore store, int permits) {
            this.store = store;
            this.permits = permits;
        }

        @Override
        public Held acquire(String name) throws InterruptedException {
            DistributedSemaphore semaphore = semaphores.computeIfAbsent(name,
                    n -> store.semaphore(n, permits, LockOptions.defaults()));
            Lease permit = semaphore.acquire();
            return permit::release;
        }

        @Override
        public void close() {
            store.close();
        }
    }
}
