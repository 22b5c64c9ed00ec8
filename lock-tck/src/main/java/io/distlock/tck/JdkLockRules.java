package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.LockStore;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** §8 The {@link Lock} view behaves as a {@code java.util.concurrent.locks.Lock}. */
public interface JdkLockRules extends TckSupport {

    @Test
    @DisplayName("§8.1 lock/unlock, tryLock and tryLock(time) exclude other clients and are reentrant")
    default void rule_8_1_lockViewExcludesAndIsReentrant() throws InterruptedException {
        Lock mine = tck().client().lock(tck().name("jdk")).asLock();
        Lock theirs = tck().client().lock(tck().name("jdk")).asLock();
        mine.lock();
        try {
            assertThat(mine.tryLock()).as("reentrant").isTrue();
            mine.unlock();
            assertThat(theirs.tryLock()).isFalse();
            long start = System.nanoTime();
            assertThat(theirs.tryLock(300, TimeUnit.MILLISECONDS)).isFalse();
            assertThat(Tck.elapsedSince(start).toMillis()).isGreaterThanOrEqualTo(280);
        } finally {
            mine.unlock();
        }
        assertThat(theirs.tryLock(Tck.PROMPTLY.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        theirs.unlock();
    }

    @Test
    @DisplayName("§8.2 unlock by a thread that does not hold the lock throws IllegalMonitorStateException")
    default void rule_8_2_unlockByNonHolderThrows() throws Exception {
        Lock lock = tck().client().lock(tck().name("jdk monitor")).asLock();
        assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class);
        lock.lock();
        try {
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            CompletableFuture.runAsync(() -> {
                try {
                    lock.unlock();
                } catch (Throwable t) {
                    thrown.set(t);
                }
            }).get(30, TimeUnit.SECONDS);
            assertThat(thrown.get()).isInstanceOf(IllegalMonitorStateException.class);
        } finally {
            lock.unlock();
        }
    }

    @Test
    @DisplayName("§8.3 newCondition is unsupported, with a clear message")
    default void rule_8_3_newConditionUnsupported() {
        Lock lock = tck().client().lock(tck().name("jdk condition")).asLock();
        assertThatThrownBy(lock::newCondition).isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("condition");
    }

    @Test
    @DisplayName("§8.4 lockInterruptibly throws InterruptedException when the waiting thread is interrupted")
    default void rule_8_4_lockInterruptiblyIsInterruptible() throws Exception {
        LockStore holder = tck().client();
        Lock held = holder.lock(tck().name("jdk interrupt")).asLock();
        Lock waiting = tck().client().lock(tck().name("jdk interrupt")).asLock();
        held.lock();
        try {
            AtomicReference<Throwable> outcome = new AtomicReference<>();
            CountDownLatch done = new CountDownLatch(1);
            Thread waiter = new Thread(() -> {
                try {
                    waiting.lockInterruptibly();
                    outcome.set(new AssertionError("acquired a held lock"));
                } catch (Throwable t) {
                    outcome.set(t);
                } finally {
                    done.countDown();
                }
            });
            waiter.start();
            assertThat(done.await(300, TimeUnit.MILLISECONDS)).as("blocked while held").isFalse();
            waiter.interrupt();
            assertThat(done.await(Tck.PROMPTLY.toMillis(), TimeUnit.MILLISECONDS)).as("woke on interrupt").isTrue();
            assertThat(outcome.get()).isInstanceOf(InterruptedException.class);
        } finally {
            held.unlock();
        }
    }

    @Test
    @DisplayName("§8.5 two Lock views of one name in one client share the thread's holds: either view unlocks")
    default void rule_8_5_lockViewsOfOneNameShareTheThreadsHolds() throws InterruptedException {
        LockStore client = tck().client();
        String name = tck().name("jdk views");
        Lock first = client.lock(name).asLock();
        Lock second = client.lock(name).asLock();
        first.lock();
        assertThat(second.tryLock()).as("reentrant through the other view").isTrue();
        second.unlock();
        second.unlock(); // the outer hold, taken through the first view
        assertThatThrownBy(first::unlock).as("nothing left to unlock").isInstanceOf(IllegalMonitorStateException.class);
        Lock theirs = tck().client().lock(name).asLock();
        assertThat(theirs.tryLock(Tck.PROMPTLY.toMillis(), TimeUnit.MILLISECONDS)).as("freed").isTrue();
        theirs.unlock();
    }
}
