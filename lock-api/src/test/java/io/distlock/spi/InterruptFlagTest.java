package io.distlock.spi;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LockStore;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The interrupt flag set aside, or outlasted, and always set again for the caller. */
class InterruptFlagTest {

    @AfterEach
    void clearFlag() {
        Thread.interrupted();
    }

    @Test
    void anUninterruptibleCallOutlastsItsInterruptsAndSetsTheFlagAgain() {
        AtomicInteger calls = new AtomicInteger();
        String answer = InterruptFlag.uninterruptibly(() -> {
            if (calls.incrementAndGet() < 3) {
                throw new InterruptedException("interrupted wait " + calls.get());
            }
            return "done";
        });
        assertThat(answer).isEqualTo("done");
        assertThat(calls).hasValue(3);
        assertThat(Thread.currentThread().isInterrupted()).as("the flag is set again").isTrue();
    }

    @Test
    void anUninterruptedCallLeavesTheFlagClear() {
        assertThat(InterruptFlag.uninterruptibly(() -> 7)).isEqualTo(7);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void theLockViewsLockTakesTheLockOnAnInterruptedThreadAndKeepsTheFlag() {
        try (LockStore store = LockStore.open("mem:interrupt-" + UUID.randomUUID())) {
            Lock view = store.lock("x").asLock();
            Thread.currentThread().interrupt();
            view.lock();
            assertThat(Thread.currentThread().isInterrupted()).as("lock() keeps the flag").isTrue();
            Thread.interrupted();
            assertThat(freeForAnotherThread(store)).as("held by the view").isFalse();
            view.unlock();
            assertThat(freeForAnotherThread(store)).as("free after unlock").isTrue();
        }
    }

    /** Whether another thread can take 'x' now (it releases it at once). */
    private static boolean freeForAnotherThread(LockStore store) {
        CompletableFuture<Boolean> took = CompletableFuture.supplyAsync(() -> store.lock("x").tryAcquire()
                .map(lease -> {
                    lease.release();
                    return true;
                }).orElse(false));
        return took.orTimeout(10, TimeUnit.SECONDS).join();
    }
}
