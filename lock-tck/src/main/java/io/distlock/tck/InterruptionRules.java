package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** §9 Interruption: an interrupted waiter leaves with InterruptedException and leaves nothing behind. */
public interface InterruptionRules extends TckSupport {

    @Test
    @DisplayName("§9.1 an interrupted waiter gets InterruptedException and leaves nothing that delays the next waiter")
    default void rule_9_1_interruptedWaiterLeavesNothingBehind() throws Exception {
        LockStore holder = tck().client();
        LockStore waiting = tck().client();
        LockStore next = tck().client();
        String name = tck().name("interrupted");
        Lease held = holder.lock(name).acquire();
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        Thread waiter = new Thread(() -> {
            try {
                Lease unexpected = waiting.lock(name).acquire();
                outcome.set(new AssertionError("acquired a held lock: " + unexpected));
            } catch (Throwable t) {
                outcome.set(t);
            } finally {
                done.countDown();
            }
        });
        waiter.start();
        assertThat(done.await(500, TimeUnit.MILLISECONDS)).as("blocked while held").isFalse();
        waiter.interrupt();
        assertThat(done.await(Tck.PROMPTLY.toMillis(), TimeUnit.MILLISECONDS)).as("woke on interrupt").isTrue();
        assertThat(outcome.get()).isInstanceOf(InterruptedException.class);
        held.release();
        long released = System.nanoTime();
        Optional<Lease> after = next.lock(name).tryAcquire(Tck.PROMPTLY);
        assertThat(after).as("the next client gets the lock at once: the interrupted waiter left no entry").isPresent();
        assertThat(Tck.elapsedSince(released)).isLessThan(Tck.PROMPTLY);
        after.get().release();
        assertThat(waiting.lock(name).tryAcquire(Tck.PROMPTLY)).as("the interrupted client can acquire again")
                .isPresent().get().satisfies(Lease::release);
    }

    @Test
    @DisplayName("§9.2 acquire on an already interrupted thread throws InterruptedException and acquires nothing")
    default void rule_9_2_alreadyInterruptedThreadDoesNotAcquire() throws InterruptedException {
        LockStore holder = tck().client();
        LockStore other = tck().client();
        String name = tck().name("pre-interrupted");
        try (Lease held = holder.lock(name).acquire()) {
            Thread.currentThread().interrupt();
            try {
                assertThatThrownBy(() -> other.lock(name).acquire()).isInstanceOf(InterruptedException.class);
            } finally {
                Thread.interrupted();
            }
            assertThat(held.isValid()).isTrue();
        }
        assertThat(other.lock(name).tryAcquire(Tck.PROMPTLY)).isPresent().get().satisfies(Lease::release);
    }
}
