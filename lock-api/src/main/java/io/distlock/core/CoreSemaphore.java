package io.distlock.core;

import io.distlock.Arguments;
import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.DistributedSemaphore;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.Optional;

/** A named semaphore of a {@link BackendLockStore}: a name, a limit and options, no state of its own. */
final class CoreSemaphore implements DistributedSemaphore {

    private final BackendLockStore store;
    private final String name;
    private final int limit;
    private final LockOptions options;

    CoreSemaphore(BackendLockStore store, String name, int limit, LockOptions options) {
        this.store = store;
        this.name = name;
        this.limit = limit;
        this.options = options;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int permits() {
        return limit;
    }

    @Override
    public LockOptions options() {
        return options;
    }

    @Override
    public Lease acquire() throws InterruptedException {
        return store.acquire(name, limit, true, options, Wait.forever());
    }

    @Override
    public Optional<Lease> tryAcquire() {
        return store.tryOnce(name, limit, true, options);
    }

    @Override
    public Optional<Lease> tryAcquire(Duration maxWait) throws InterruptedException {
        Arguments.requireNonNegative(maxWait, "maxWait");
        return Optional.ofNullable(store.acquire(name, limit, true, options, Wait.upTo(maxWait)));
    }

    @Override
    public int availablePermits() {
        return Math.max(0, limit - store.permits().heldPermits(name));
    }

    @Override
    public String toString() {
        return "DistributedSemaphore[" + name + ", permits=" + limit + ", " + options + "]";
    }
}
