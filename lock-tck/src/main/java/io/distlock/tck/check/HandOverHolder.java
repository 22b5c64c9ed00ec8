package io.distlock.tck.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/**
 * Checks for a store that hands a released lock to a thread queued behind it in the same store: the store must then
 * name the receiving thread as the holder (the admin view's owner), not the thread that released.
 */
public final class HandOverHolder {

    private static final Duration BOUND = Duration.ofSeconds(20);

    private HandOverHolder() {
    }

    /**
     * Holds {@code name} in {@code store}, queues a thread of a unique name behind it, releases, and asserts that
     * the admin view then names that thread as the holder.
     */
    public static void adminNamesTheReceivingThread(LockStore store, String name) throws Exception {
        Lease first = store.lock(name).acquire();
        String receiverName = "receiver-" + UUID.randomUUID().toString().substring(0, 8);
        FutureTask<Lease> receiving = new FutureTask<>(() -> store.lock(name).acquire());
        Thread receiver = new Thread(receiving, receiverName);
        receiver.start();
        awaitQueuedAtLocalGate(receiver);

        first.release();
        Lease second = receiving.get(BOUND.toSeconds(), TimeUnit.SECONDS);

        assertThat(store.admin().list(name, 10).get(0).owner())
                .as("the holder the admin view shows after a hand-over from " + Thread.currentThread().getName())
                .endsWith(" " + receiverName);
        second.release();
        receiver.join(BOUND.toMillis());
    }

    /** Waits until {@code t} is parked in the core's local gate, i.e. queued behind the holder of its lock. */
    public static void awaitQueuedAtLocalGate(Thread t) {
        Awaitility.await().atMost(BOUND).until(() -> isQueuedAtLocalGate(t));
    }

    /** Whether {@code t} is parked in the core's local gate (read from its stack). */
    public static boolean isQueuedAtLocalGate(Thread t) {
        if (t.getState() != Thread.State.WAITING) {
            return false;
        }
        for (StackTraceElement e : t.getStackTrace()) {
            if (e.getClassName().equals("io.distlock.core.NameState$Waiter")) {
                return true;
            }
        }
        return false;
    }
}
