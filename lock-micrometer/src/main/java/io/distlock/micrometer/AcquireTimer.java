package io.distlock.micrometer;

import io.distlock.Lease;
import io.distlock.StoreUnavailableException;
import io.distlock.micrometer.LockStoreMetrics.Outcome;
import java.util.Optional;
import java.util.function.IntConsumer;
import java.util.function.ObjLongConsumer;
import java.util.function.UnaryOperator;

/**
 * Times acquire attempts by outcome, counts the callers waiting in them and wraps each granted lease: what a metered
 * lock and a metered semaphore share, so both record their acquisitions the same way.
 */
final class AcquireTimer {

    /** One acquire call of the decorated lock or semaphore. */
    interface Attempt {
        Optional<Lease> run() throws InterruptedException;
    }

    /** The one acquire call that waits without bound. */
    interface Acquire {
        Lease run() throws InterruptedException;
    }

    private final IntConsumer waiting;
    private final ObjLongConsumer<Outcome> acquired;
    private final UnaryOperator<Lease> watch;

    /**
     * @param waiting  told +1 when a caller starts waiting and -1 when it stops
     * @param acquired told each attempt's outcome and the nanoseconds it waited
     * @param watch    wraps a granted lease in its metered lease
     */
    AcquireTimer(IntConsumer waiting, ObjLongConsumer<Outcome> acquired, UnaryOperator<Lease> watch) {
        this.waiting = waiting;
        this.acquired = acquired;
        this.watch = watch;
    }

    Lease acquire(Acquire acquire) throws InterruptedException {
        return timed(() -> Optional.of(acquire.run())).orElseThrow();
    }

    /** A single attempt, which does not wait and so cannot be interrupted. */
    Optional<Lease> tryOnce(Attempt attempt) {
        try {
            return timed(attempt);
        } catch (InterruptedException e) {
            throw new AssertionError("a single attempt does not throw InterruptedException", e);
        }
    }

    Optional<Lease> timed(Attempt attempt) throws InterruptedException {
        long start = System.nanoTime();
        waiting.accept(1);
        // anything thrown other than these (a caller's bad argument, a closed store, an Error) is a failure of the
        // call, not an outage: only StoreUnavailableException says the store could not be reached
        Outcome outcome = Outcome.FAILED;
        try {
            Optional<Lease> lease = attempt.run();
            outcome = lease.isPresent() ? Outcome.ACQUIRED : Outcome.TIMED_OUT;
            return lease.map(watch);
        } catch (InterruptedException e) {
            outcome = Outcome.INTERRUPTED;
            throw e;
        } catch (StoreUnavailableException e) {
            outcome = Outcome.UNAVAILABLE;
            throw e;
        } finally {
            waiting.accept(-1);
            acquired.accept(outcome, System.nanoTime() - start);
        }
    }
}
