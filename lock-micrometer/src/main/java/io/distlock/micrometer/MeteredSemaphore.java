package io.distlock.micrometer;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.Semaphore;
import io.distlock.StoreUnavailableException;
import io.distlock.micrometer.LockStoreMetrics.Outcome;
import java.time.Duration;
import java.util.Optional;

/** A {@link Semaphore} that times each acquire by outcome and hands out {@link MeteredPermit}s. */
final class MeteredSemaphore implements Semaphore {

    private final Semaphore semaphore;
    private final PermitMetrics.Meters meters;

    MeteredSemaphore(Semaphore semaphore, PermitMetrics.Meters meters) {
        this.semaphore = semaphore;
        this.meters = meters;
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
        return timed(() -> Optional.of(semaphore.acquire())).orElseThrow();
    }

    @Override
    public Optional<Lease> tryAcquire() {
        try {
            return timed(semaphore::tryAcquire);
        } catch (InterruptedException e) {
            throw new AssertionError("a single attempt does not throw InterruptedException", e);
        }
    }

    @Override
    public Optional<Lease> tryAcquire(Duration maxWait) throws InterruptedException {
        return timed(() -> semaphore.tryAcquire(maxWait));
    }

    @Override
    public int availablePermits() {
        return semaphore.availablePermits();
    }

    private interface Attempt {
        Optional<Lease> run() throws InterruptedException;
    }

    private Optional<Lease> timed(Attempt attempt) throws InterruptedException {
        long start = System.nanoTime();
        meters.waiting(1);
        Outcome outcome = Outcome.UNAVAILABLE;
        try {
            Optional<Lease> lease = attempt.run();
            outcome = lease.isPresent() ? Outcome.ACQUIRED : Outcome.TIMED_OUT;
            return lease.map(l -> MeteredPermit.watch(l, meters));
        } catch (InterruptedException e) {
            outcome = Outcome.INTERRUPTED;
            throw e;
        } catch (StoreUnavailableException e) {
            outcome = Outcome.UNAVAILABLE;
            throw e;
        } finally {
            meters.waiting(-1);
            meters.acquired(outcome, System.nanoTime() - start);
        }
    }

    @Override
    public String toString() {
        return semaphore.toString();
    }
}
