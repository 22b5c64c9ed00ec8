package io.distlock.zookeeper;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The wait of a caller for an asynchronous ZooKeeper answer: on a latch, until a deadline, and ended by the caller's
 * interrupt only where the call is interruptible (see {@link WaitBudget}). One place for it, so that the Curator
 * operations ({@link BoundedCall}) and the plain listing ({@link Listing}) treat time and interrupts alike.
 */
final class LatchWait {

    private LatchWait() {
    }

    /**
     * Waits until {@code done} opens or {@code deadlineNanos} (a {@link System#nanoTime()}) passes, whichever is first.
     *
     * @param interruptible whether the caller's interrupt ends the wait; if not, the wait goes on to the end and the
     *     interrupt is kept for the caller
     * @throws InterruptedException if interruptible and interrupted while waiting (the interrupt is then cleared)
     */
    static void await(CountDownLatch done, long deadlineNanos, boolean interruptible) throws InterruptedException {
        boolean interrupted = false;
        try {
            while (true) {
                long left = deadlineNanos - System.nanoTime();
                try {
                    if (left <= 0 || done.await(left, TimeUnit.NANOSECONDS)) {
                        return;
                    }
                } catch (InterruptedException e) {
                    if (interruptible) {
                        throw e;
                    }
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
