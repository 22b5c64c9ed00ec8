package io.distlock.micrometer;

import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.StoreUnavailableException;
import io.distlock.core.LockAdapter;
import io.distlock.core.ViewLeases;
import io.distlock.micrometer.LockStoreMetrics.Outcome;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.Lock;

/** A {@link DistributedLock} that times each acquire by outcome and hands out {@link MeteredLease}s. */
final class MeteredLock implements DistributedLock {

    private final DistributedLock lock;
    private final LockStoreMetrics metrics;
    private final Lock view;

    MeteredLock(DistributedLock lock, LockStoreMetrics metrics, ViewLeases viewLeases) {
        this.lock = lock;
        this.metrics = metrics;
        this.view = new LockAdapter(this, viewLeases);
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
        return timed(() -> Optional.of(lock.acquire())).orElseThrow();
    }

    @Override
    public Optional<Lease> tryAcquire() {
        try {
            return timed(lock::tryAcquire);
        } catch (InterruptedException e) {
            throw new AssertionError("a single attempt does not throw InterruptedException", e);
        }
    }

    @Override
    public Optional<Lease> tryAcquire(Duration maxWait) throws InterruptedException {
        return timed(() -> lock.tryAcquire(maxWait));
    }

    @Override
    public Lock asLock() {
        return view;
    }

    private interface Attempt {
        Optional<Lease> run() throws InterruptedException;
    }

    private Optional<Lease> timed(Attempt attempt) throws InterruptedException {
        long start = System.nanoTime();
        metrics.waiting(1);
        Outcome outcome = Outcome.UNAVAILABLE;
        try {
            Optional<Lease> lease = attempt.run();
            outcome = lease.isPresent() ? Outcome.ACQUIRED : Outcome.TIMED_OUT;
            return lease.map(l -> MeteredLease.watch(l, metrics));
        } catch (InterruptedException e) {
            outcome = Outcome.INTERRUPTED;
            throw e;
        } catch (StoreUnavailableException e) {
            outcome = Outcome.UNAVAILABLE;
            throw e;
        } finally {
            metrics.waiting(-1);
            metrics.acquired(outcome, System.nanoTime() - start);
        }
    }

    @Override
    public String toString() {
        return lock.toString();
    }
}
