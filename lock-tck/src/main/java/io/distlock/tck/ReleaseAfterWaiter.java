package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The steps §16.12 (locks) and §18.12 (permits) share: a holder with a long lease, a waiter in another client that
 * was refused while that lease was long, then {@code releaseAfter(MIN_HELD)}. The waiter must get the lock within
 * margin plus promptly of {@code MIN_HELD}, not when the long lease it was told of would have run out.
 */
final class ReleaseAfterWaiter {

    /** The holder's lease time: what a waiter that sleeps through the shortened expiry would wait for. */
    static final Duration LONG_LEASE = Duration.ofSeconds(30);
    /** How long the waiter waits before releaseAfter is called (it was refused by then). */
    private static final Duration REFUSED_FOR = Duration.ofSeconds(1);
    /** The minimum hold given to releaseAfter, counted from the holder's acquisition: well after REFUSED_FOR. */
    private static final Duration MIN_HELD = Duration.ofSeconds(3);

    /** One side's timed acquisition: a lock's or a semaphore's {@code tryAcquire(wait)}. */
    interface TimedAcquire {
        Optional<Lease> tryAcquire(Duration wait) throws InterruptedException;
    }

    private ReleaseAfterWaiter() {
    }

    /** Runs the steps: {@code holder} and {@code waiter} acquire the same name in two clients. */
    static void check(TckContext tck, String rule, TimedAcquire holder, TimedAcquire waiter) throws Exception {
        long acquired = System.nanoTime(); // before the call: the core counts minHeld from a moment within it
        Lease held = holder.tryAcquire(Duration.ZERO).orElseThrow();
        CompletableFuture<Long> waited = CompletableFuture.supplyAsync(() -> {
            try {
                Optional<Lease> got = waiter.tryAcquire(LONG_LEASE.plus(Tck.PROMPTLY));
                long after = System.nanoTime() - acquired;
                got.ifPresent(Lease::release);
                return got.isPresent() ? after : -1L;
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThatThrownBy(() -> waited.get(REFUSED_FOR.toMillis(), TimeUnit.MILLISECONDS))
                .as("the waiter is refused while the lease is long").isInstanceOf(TimeoutException.class);
        held.releaseAfter(MIN_HELD);
        long afterNanos = waited.get(Tck.HANG.toMillis(), TimeUnit.MILLISECONDS);
        Duration bound = MIN_HELD.plus(Tck.expiryMargin(tck)).plus(Tck.PROMPTLY);
        assertThat(afterNanos).as("the waiter got it within the lease time it was told").isNotNegative();
        Duration after = Duration.ofNanos(afterNanos);
        System.out.println("TCK " + rule + ": waiter refused under a " + LONG_LEASE.toSeconds()
                + " s lease acquired " + after.toMillis() + " ms after the holder's acquisition (releaseAfter "
                + MIN_HELD.toMillis() + " ms, bound " + bound.toMillis() + " ms)");
        assertThat(after).as("not before minHeld").isGreaterThanOrEqualTo(MIN_HELD);
        assertThat(after).as("acquired within margin plus promptly after the releaseAfter time, not when the long"
                + " lease it was refused under would have run out").isLessThanOrEqualTo(bound);
    }
}
