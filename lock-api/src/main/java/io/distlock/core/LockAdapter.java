package io.distlock.core;

import io.distlock.DistributedLock;
import io.distlock.Lease;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * The {@link Lock} view of a {@link DistributedLock}: each thread's leases are kept on a stack so that
 * {@code unlock()} releases the innermost one, and an {@code unlock()} by a thread that holds none throws
 * {@link IllegalMonitorStateException}, as {@link java.util.concurrent.locks.ReentrantLock} does. The stacks live in
 * a {@link ViewLeases} of the store, per thread and lock name, so every view of one name in one store shares them,
 * and a thread that dies takes its stack with it. Public so that decorators of {@link DistributedLock} (metrics,
 * adapters) can offer the same view over their own acquire path.
 */
public final class LockAdapter implements Lock {

    private final DistributedLock lock;
    private final ViewLeases stacks;

    /**
     * A {@link Lock} view whose every acquisition goes through {@code lock}.
     *
     * @param stacks where the views of one store keep each thread's leases; share one per store
     */
    public LockAdapter(DistributedLock lock, ViewLeases stacks) {
        this.lock = lock;
        this.stacks = stacks;
    }

    @Override
    public void lock() {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    push(lock.acquire());
                    return;
                } catch (InterruptedException e) {
                    interrupted = true; // lock() is not interruptible: keep waiting, restore the flag afterwards
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        push(lock.acquire());
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
        Lease lease = stacks.pop(lock.name());
        if (lease == null) {
            throw new IllegalMonitorStateException("thread " + Thread.currentThread().getName()
                    + " does not hold lock '" + lock.name() + "' through a Lock view of this store");
        }
        lease.release();
    }

    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("distributed locks have no conditions: lock '" + lock.name()
                + "' cannot wake a waiter in another process; use a queue or a store-native notification instead");
    }

    private boolean pushIfPresent(Optional<Lease> lease) {
        lease.ifPresent(this::push);
        return lease.isPresent();
    }

    private void push(Lease lease) {
        stacks.push(lock.name(), lease);
    }

    @Override
    public String toString() {
        return "Lock[" + lock.name() + "]";
    }
}
