package io.distlock;

import io.distlock.spi.InterruptFlag;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * The {@link Lock} views of one store's locks ({@link DistributedLock#asLock()}): each thread's leases taken through
 * them are kept on a stack per lock name, so every view of one name shares them, {@code unlock()} releases the
 * innermost, and an {@code unlock()} by a thread that holds none throws {@link IllegalMonitorStateException}, as
 * {@link java.util.concurrent.locks.ReentrantLock} does. Kept per thread, so a thread that dies takes its stacks with
 * it. A store keeps one; a decorator of {@link DistributedLock} (metrics) keeps its own and returns
 * {@code views.of(this)} from {@code asLock()}, so that view acquires through the decorator.
 */
public final class LockViews {

    private final ThreadLocal<Map<String, Deque<Lease>>> byThread = new ThreadLocal<>();

    /**
     * A {@link Lock} view whose every acquisition goes through {@code lock}, sharing the stacks of this object.
     *
     * @throws NullPointerException if {@code lock} is null
     */
    public Lock of(DistributedLock lock) {
        return new View(Objects.requireNonNull(lock, "lock must not be null"));
    }

    /** Remembers a lease taken through a Lock view of {@code name} by the calling thread. */
    private void push(String name, Lease lease) {
        Map<String, Deque<Lease>> mine = byThread.get();
        if (mine == null) {
            mine = new HashMap<>();
            byThread.set(mine);
        }
        mine.computeIfAbsent(name, k -> new ArrayDeque<>()).push(lease);
    }

    /** The calling thread's innermost lease taken through a Lock view of {@code name}, removed; null if none. */
    private Lease pop(String name) {
        Map<String, Deque<Lease>> mine = byThread.get();
        Deque<Lease> leases = mine == null ? null : mine.get(name);
        if (leases == null || leases.isEmpty()) {
            return null;
        }
        Lease lease = leases.pop();
        if (leases.isEmpty()) {
            mine.remove(name);
            if (mine.isEmpty()) {
                byThread.remove();
            }
        }
        return lease;
    }

    /** One lock's view. */
    private final class View implements Lock {

        private final DistributedLock lock;

        View(DistributedLock lock) {
            this.lock = lock;
        }

        @Override
        public void lock() {
            push(lock.name(), InterruptFlag.uninterruptibly(lock::acquire));
        }

        @Override
        public void lockInterruptibly() throws InterruptedException {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            push(lock.name(), lock.acquire());
        }

        @Override
        public boolean tryLock() {
            return pushIfPresent(lock.tryAcquire());
        }

        @Override
        public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            Duration wait = Duration.ofNanos(Math.max(0, unit.toNanos(time)));
            return pushIfPresent(lock.tryAcquire(wait));
        }

        @Override
        public void unlock() {
            Lease lease = pop(lock.name());
            if (lease == null) {
                throw new IllegalMonitorStateException("thread " + Thread.currentThread().getName()
                        + " does not hold lock " + Arguments.quoted(lock.name())
                        + " through a Lock view of this store");
            }
            lease.release();
        }

        @Override
        public Condition newCondition() {
            throw new UnsupportedOperationException("distributed locks have no conditions: lock "
                    + Arguments.quoted(lock.name())
                    + " cannot wake a waiter in another process; use a queue or a store-native notification"
                    + " instead");
        }

        private boolean pushIfPresent(Optional<Lease> lease) {
            lease.ifPresent(l -> push(lock.name(), l));
            return lease.isPresent();
        }

        @Override
        public String toString() {
            return "Lock[" + lock.name() + "]";
        }
    }
}
