package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The one wait for an asynchronous answer: it ends when the latch opens or the deadline passes, an interrupt ends it
 * only if the call is interruptible, and an interrupt it did not obey is kept for the caller.
 */
@Timeout(30)
class LatchWaitTest {

    /** Far enough that no test reaches it: a wait that ends did so for another reason. */
    private static final long FAR = Duration.ofMinutes(5).toNanos();
    private static final long SHORT = Duration.ofMillis(200).toNanos();

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    @Test
    void anOpenLatchEndsTheWaitBeforeTheDeadline() throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        done.countDown();

        LatchWait.await(done, System.nanoTime() + FAR, true);

        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void aClosedLatchIsWaitedForUntilTheDeadline() throws InterruptedException {
        long deadline = System.nanoTime() + SHORT;

        LatchWait.await(new CountDownLatch(1), deadline, true);

        assertThat(System.nanoTime() - deadline).as("nanoseconds past the deadline at return").isNotNegative();
    }

    @Test
    void anInterruptEndsAnInterruptibleWaitAndIsConsumed() {
        Thread.currentThread().interrupt();

        assertThatThrownBy(() -> LatchWait.await(new CountDownLatch(1), System.nanoTime() + FAR, true))
                .isInstanceOf(InterruptedException.class);
        assertThat(Thread.currentThread().isInterrupted()).as("interrupt flag after the exception").isFalse();
    }

    @Test
    void anUninterruptibleWaitGoesOnToTheDeadlineAndKeepsTheInterrupt() throws InterruptedException {
        long deadline = System.nanoTime() + SHORT;
        Thread.currentThread().interrupt();

        LatchWait.await(new CountDownLatch(1), deadline, false);

        assertThat(System.nanoTime() - deadline).as("nanoseconds past the deadline at return").isNotNegative();
        assertThat(Thread.currentThread().isInterrupted()).as("interrupt flag kept for the caller").isTrue();
    }

    @Test
    void aDeadlineAlreadyPassedReturnsAtOnceEvenWhenInterruptedAndInterruptible() throws InterruptedException {
        Thread.currentThread().interrupt();

        LatchWait.await(new CountDownLatch(1), System.nanoTime() - 1, true);

        assertThat(Thread.currentThread().isInterrupted()).as("interrupt flag, not consumed").isTrue();
    }
}
