package io.distlock.spring;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.DistributedSemaphore;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A semaphore bean whose store could not be opened at start-up ({@code distlock.lazy-start=true} with the store
 * down): each call asks the store for the semaphore until it is reachable (until then calls throw
 * {@code StoreUnavailableException}, as the lazy store's do), then keeps it.
 */
final class LazySemaphore implements DistributedSemaphore {

    private final String name;
    private final int permits;
    private final Supplier<DistributedSemaphore> opener;
    private volatile DistributedSemaphore semaphore;

    LazySemaphore(String name, int permits, Supplier<DistributedSemaphore> opener) {
        this.name = name;
        this.permits = permits;
        this.opener = opener;
    }

    private DistributedSemaphore semaphore() {
        DistributedSemaphore current = semaphore;
        if (current == null) {
            synchronized (this) {
                if (semaphore == null) {
                    semaphore = opener.get();
                }
                current = semaphore;
            }
        }
        return current;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int permits() {
        return permits;
    }

    @Override
    public LockOptions options() {
        return semaphore().options();
    }

    @Override
    public Lease acquire() throws InterruptedException {
        return semaphore().acquire();
    }

    @Override
    public Optional<Lease> tryAcquire() {
        return semaphore().tryAcquire();
    }

    @Override
    public Optional<Lease> tryAcquire(Duration maxWait) throws InterruptedException {
        return semaphore().tryAcquire(maxWait);
    }

    @Override
    public int availablePermits() {
        return semaphore().availablePermits();
    }

    @Override
    public String toString() {
        DistributedSemaphore current = semaphore;
        return current != null ? current.toString()
                : "DistributedSemaphore[" + name + ", " + permits + " permits, store not open yet]";
    }
}
