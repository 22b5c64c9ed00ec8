package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** §2 Non-blocking and timed acquisition; §3 blocking acquisition. */
public interface WaitingRules extends TckSupport {

    @Test
    @DisplayName("§2.1 tryAcquire() returns empty at once when the lock is held elsewhere")
    default void rule_2_1_tryAcquireReturnsEmptyAtOnceWhenHeld() {
        LockStore holder = tck().client();
        LockStore other = tck().client();
        try (Lease held = holder.lock(tck().name("busy")).tryAcquire().orElseThrow()) {
            long start = System.nanoTime();
            Optional<Lease> attempt = other.lock(tck().name("busy")).tryAcquire();
            assertThat(attempt).isEmpty();
            assertThat(Tck.elapsedSince(start)).as("a single attempt").isLessThan(Tck.PROMPTLY);
            assertThat(held.isValid()).isTrue();
        }
    }

    @Test
    @DisplayName("§2.2 tryAcquire(d) waits about d, then returns empty")
    default void rule_2_2_timedTryAcquireWaitsThenGivesUp() throws InterruptedException {
        LockStore holder = tck().client();
        LockStore other = tck().client();
        Duration wait = Duration.ofMillis(800);
        try (Lease held = holder.lock(tck().name("busy")).tryAcquire().orElseThrow()) {
            long start = System.nanoTime();
            Optional<Lease> attempt = other.lock(tck().name("busy")).tryAcquire(wait);
            Duration took = Tck.elapsedSince(start);
            assertThat(attempt).isEmpty();
            assertThat(took).as("waited at least the requested time").isGreaterThanOrEqualTo(wait.minusMillis(20));
            assertThat(took).as("gave up soon after the requested time").isLessThan(wait.plus(Tck.PROMPTLY));
            assertThat(held.isValid()).isTrue();
        }
    }

    @Test
    @DisplayName("§2.3 tryAcquire(d) returns a lease promptly when the holder releases during the wait")
    default void rule_2_3_timedTryAcquireSucceedsWhenReleasedDuringWait() throws Exception {
        LockStore holder = tck().client();
        LockStore other = tck().client();
        String name = tck().name("handoff");
        Lease held = holder.lock(name).tryAcquire().orElseThrow();
        CompletableFuture<Optional<Lease>> waiter = CompletableFuture.supplyAsync(() -> {
            try {
                return other.lock(name).tryAcquire(Duration.ofSeconds(30));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThatThrownBy(() -> waiter.get(500, TimeUnit.MILLISECONDS)).as("the waiter is waiting")
                .isInstanceOf(TimeoutException.class);
        long released = System.nanoTime();
        held.release();
        Optional<Lease> got = waiter.get(30, TimeUnit.SECONDS);
        assertThat(got).as("the waiter got the lock").isPresent();
        assertThat(Tck.elapsedSince(released)).as("hand-off after release").isLessThan(Tck.PROMPTLY);
        assertThat(got.get().fencingToken()).isGreaterThan(held.fencingToken());
        got.get().release();
    }

    @Test
    @DisplayName("§2.4 a negative wait is rejected; a zero wait is a single attempt")
    default void rule_2_4_negativeWaitRejectedZeroWaitIsOneAttempt() throws InterruptedException {
        LockStore holder = tck().client();
        LockStore other = tck().client();
        DistributedLock lock = other.lock(tck().name("zero"));
        assertThatThrownBy(() -> lock.tryAcquire(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxWait");
        try (Lease held = holder.lock(tck().name("zero")).tryAcquire().orElseThrow()) {
            long start = System.nanoTime();
            assertThat(lock.tryAcquire(Duration.ZERO)).isEmpty();
            assertThat(Tck.elapsedSince(start)).isLessThan(Tck.PROMPTLY);
            assertThat(held.isValid()).isTrue();
        }
        try (Lease free = lock.tryAcquire(Duration.ZERO).orElseThrow()) {
            assertThat(free.isValid()).isTrue();
        }
    }

    @Test
    @DisplayName("§3.1 acquire() blocks while the lock is held and wakes promptly after release")
    default void rule_3_1_acquireBlocksUntilReleaseThenWakesPromptly() throws Exception {
        LockStore holder = tck().client();
        LockStore other = tck().client();
        String name = tck().name("blocking");
        Lease held = holder.lock(name).acquire();
        CompletableFuture<Lease> waiter = CompletableFuture.supplyAsync(() -> {
            try {
                return other.lock(name).acquire();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThatThrownBy(() -> waiter.get(700, TimeUnit.MILLISECONDS)).as("blocked while held")
                .isInstanceOf(TimeoutException.class);
        long released = System.nanoTime();
        held.release();
        Lease got = waiter.get(30, TimeUnit.SECONDS);
        assertThat(Tck.elapsedSince(released)).as("hand-off after release, not a lease-time poll")
                .isLessThan(Tck.PROMPTLY);
        got.release();
    }
}
