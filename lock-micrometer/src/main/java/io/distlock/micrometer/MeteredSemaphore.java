package io.distlock.micrometer;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.DistributedSemaphore;
import java.time.Duration;
import java.util.Optional;

/** A {@link DistributedSemaphore} that times each acquire by outcome and hands out {@link MeteredPermit}s. */
final class MeteredSemaphore implements DistributedSemaphore {

    private final DistributedSemaphore semaphore;
    private final AcquireTimer timer;

    MeteredSemaphore(DistributedSemaphore semaphore, PermitMetrics.Meters meters) {
        this.semaphore = semaphore;
        this.timer = new AcquireTimer(meters::waiting, meters::acquired, l -> MeteredPermit.watch(l, meters));
    }

    @Override
    public String name() {
        return semaphore.name();
    }

    @Override
    public int permits() {
        return semaphore.permits();
    }

    @Override
    public LockOptions options() {
        return semaphore.options();
    }

    @Override
    public Lease acquire() throws InterruptedException {
        return timer.acquire(semaphore::acquire);
    }

    @Override
    public Optional<Lease> tryAcquire() {
        return timer.tryOnce(semaphore::tryAcquire);
    }

    @Override
    public Optional<Lease> tryAcquire(Duration maxWait) throws InterruptedException {
        return timer.timed(() -> semaphore.tryAcquire(maxWait));
    }

    @Override
    public int availablePermits() {
        return semaphore.availablePermits();
    }

    @Override
    public String toString() {
        return semaphore.toString();
    }
}
