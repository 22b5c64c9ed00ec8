package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * §24 Abandoned attempts: a client's acquire or hand-over whose statement waits in the store on a record another
 * transaction keeps locked, until the client gives up on it (its socket or statement timeout), must not take the lock
 * later, when that transaction ends, for a token nobody has: the lock would then be held by nobody alive for the whole
 * lease. Either the store gives up first (a server-side bound below the client's), or the client's cleanup waits until
 * the abandoned statement is provably dead. Needs the harness's {@link #recordLocking()}; skipped without it.
 */
public interface AbandonedAttemptRules extends TckSupport {

    /** The lease the abandoned attempts ask for: far longer than every bound the rules allow. */
    Duration ABANDONED_LEASE = Duration.ofSeconds(60);

    /**
     * How long the other transaction goes on after the client gave up: a part of the scenario (an operator's
     * transaction outlives the client's timeout), not a wait for an event. A store's cleanup that runs at once and
     * finds nothing to undo, while its abandoned statement still waits on the record, is caught only if the record
     * stays locked a while; a correct store copes with any length.
     */
    Duration BLOCKER_OUTLIVES_CLIENT = Duration.ofSeconds(2);

    /** A hand that keeps a lock name's record locked by another transaction; null (the default) skips §24. */
    default RecordLocking recordLocking() {
        return null;
    }

    @Test
    @DisplayName("§24.1 an acquire abandoned while another transaction locks the record never leaves the lock held by "
            + "nobody alive")
    default void rule_24_1_acquireAbandonedOnALockedRecordLeavesTheLockFree() throws Exception {
        RecordLocking locking = recordLocking();
        Assumptions.assumeTrue(locking != null, "the store offers no hand to lock a record (recordLocking())");
        String name = tck().name("abandoned acquire");
        LockStore abandoning = tck().client();
        LockStore next = tck().client();
        next.lock(name).tryAcquire().orElseThrow().release(); // the record exists and is free
        Duration bound = tck().operationTimeout().plus(Tck.PROMPTLY);
        Optional<Lease> outcome;
        try (AutoCloseable blocker = locking.lockRecord(name)) {
            CompletableFuture<Optional<Lease>> attempt = CompletableFuture.supplyAsync(() -> abandoning.lock(name,
                    LockOptions.defaults().withLeaseTime(ABANDONED_LEASE)).tryAcquire());
            outcome = outcomeWithin(attempt, bound, "tryAcquire() on a record locked by another transaction");
            Thread.sleep(BLOCKER_OUTLIVES_CLIENT.toMillis()); // the operator's transaction goes on (see the constant)
        }
        long freedAt = System.nanoTime();
        try {
            Optional<Lease> taken = next.lock(name).tryAcquire(bound);
            assertThat(taken).as("another client's tryAcquire(%s ms) once the blocking transaction ended (the attempt"
                    + " returned %s): an abandoned attempt must not hold the lock for its %s s lease", bound.toMillis(),
                    outcome.isPresent() ? "a lease" : "no lease", ABANDONED_LEASE.toSeconds())
                    .isPresent();
            assertThat(Duration.ofNanos(System.nanoTime() - freedAt)).isLessThan(bound.plus(Tck.PROMPTLY));
            taken.get().release();
        } finally {
            outcome.ifPresent(Lease::release);
        }
    }

    @Test
    @DisplayName("§24.2 a hand-over abandoned while another transaction locks the record never leaves the lock held by "
            + "nobody alive")
    default void rule_24_2_handOverAbandonedOnALockedRecordLeavesTheLockToSomeoneAlive() throws Exception {
        RecordLocking locking = recordLocking();
        Assumptions.assumeTrue(locking != null, "the store offers no hand to lock a record (recordLocking())");
        String name = tck().name("abandoned hand-over");
        LockStore client = tck().client();
        LockOptions longLease = LockOptions.defaults().withLeaseTime(ABANDONED_LEASE);
        Lease held = client.lock(name, longLease).tryAcquire().orElseThrow();
        CompletableFuture<Optional<Lease>> waiter = CompletableFuture.supplyAsync(() -> {
            try {
                return client.lock(name, longLease).tryAcquire(Tck.HANG);
            } catch (InterruptedException e) {
                throw new CompletionException(e);
            }
        });
        assertThatThrownBy(() -> waiter.get(500, TimeUnit.MILLISECONDS)).as("waiting while the lock is held")
                .isInstanceOf(TimeoutException.class);
        Duration bound = tck().operationTimeout().plus(Tck.PROMPTLY);
        try (AutoCloseable blocker = locking.lockRecord(name)) {
            CompletableFuture<Optional<Lease>> release = CompletableFuture.supplyAsync(() -> {
                held.release(); // hands the lock over to the waiting thread
                return Optional.empty();
            });
            outcomeWithin(release, bound, "release() with a waiter, on a record locked by another transaction");
            Thread.sleep(BLOCKER_OUTLIVES_CLIENT.toMillis()); // the operator's transaction goes on (see the constant)
        }
        Optional<Lease> got;
        try {
            got = waiter.get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("the waiter (lease " + ABANDONED_LEASE.toSeconds() + " s) had no lease "
                    + bound.toMillis() + " ms after the blocking transaction ended: the lock is held by nobody alive");
        }
        assertThat(got).as("the waiter's lease").isPresent();
        got.get().release();
    }

    /**
     * What {@code call} returned within {@code bound}: a value, or empty after a {@link StoreUnavailableException}
     * (a client may give up on a statement the store keeps waiting).
     */
    private static Optional<Lease> outcomeWithin(CompletableFuture<Optional<Lease>> call, Duration bound,
            String what) throws InterruptedException {
        try {
            return call.get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError(what + " had not returned after " + bound.toMillis() + " ms");
        } catch (ExecutionException e) {
            assertThat(e.getCause()).as(what + ": the only failure allowed")
                    .isInstanceOf(StoreUnavailableException.class);
            return Optional.empty();
        }
    }
}
