package io.distlock.micrometer;

import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockViews;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.Lock;

/** A {@link DistributedLock} that times each acquire by outcome and hands out {@link MeteredLease}s. */
final class MeteredLock implements DistributedLock {

    private final DistributedLock lock;
    private final AcquireTimer timer;
    private final Lock view;

    MeteredLock(DistributedLock lock, LockStoreMetrics metrics, LockViews lockViews) {
        this.lock = lock;
        this.timer = new AcquireTimer(metrics::waiting, metrics::acquired, l -> MeteredLease.watch(l, metrics));
        this.view = lockViews.of(this);
    }

    @Override
    public String name() {
        return lock.name();
    }

    @Override
    public LockOptions options() {
        return lock.options();
    }

    @Override
    public Lease acquire() throws InterruptedException {
        return timer.acquire(lock::acquire);
    }

    @Override
    public Optional<Lease> tryAcquire() {
        return timer.tryOnce(lock::tryAcquire);
    }

    @Override
    public Optional<Lease> tryAcquire(Duration maxWait) throws InterruptedException {
        return timer.timed(() -> lock.tryAcquire(maxWait));
    }

    @Override
    public Lock asLock() {
        return view;
    }

    @Override
    public String toString() {
        return lock.toString();
    }
}
