package io.distlock.spring.integration;

import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;

/**
 * A Spring Integration {@link org.springframework.integration.support.locks.DistributedLock} over a distlock lock:
 * reentrant per thread, {@code unlock()} from a thread that holds nothing throws
 * {@link IllegalMonitorStateException}, and {@code unlock()} of a lease lost while held throws
 * {@link io.distlock.LockLostException} (after freeing it), as Spring Integration's own registries report expiry.
 * The lease is available to its holder through {@link #currentLease()}, for its fencing token.
 */
public final class DistlockLock implements org.springframework.integration.support.locks.DistributedLock {

    private final LockStore store;
    private final DistributedLock lock;
    private final ConcurrentHashMap<Thread, Deque<Lease>> leasesByThread = new ConcurrentHashMap<>();
    private volatile long lastUsedNanos = System.nanoTime();

    DistlockLock(LockStore store, String name) {
        this.store = store;
        this.lock = store.lock(name);
    }

    /** The store's lock name. */
    public String name() {
        return lock.name();
    }

    @Override
    public void lock() {
        lockUninterruptibly(lock);
    }

    @Override
    public void lock(Duration timeToLive) {
        lockUninterruptibly(withLeaseTime(timeToLive));
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
        return tryLock(lock, Duration.ofNanos(Math.max(0, unit.toNanos(time))));
    }

    @Override
    public boolean tryLock(Duration waitTime, Duration timeToLive) throws InterruptedException {
        return tryLock(withLeaseTime(timeToLive), waitTime);
    }

    @Override
    public void unlock() {
        Thread me = Thread.currentThread();
        Deque<Lease> leases = leasesByThread.get(me);
        if (leases == null || leases.isEmpty()) {
            throw new IllegalMonitorStateException("thread " + me.getName() + " does not hold lock '" + name() + "'");
        }
        Lease lease = leases.pop();
        if (leases.isEmpty()) {
            leasesByThread.remove(me);
        }
        lastUsedNanos = System.nanoTime();
        lease.release();
    }

    /** Not supported: a waiter in another process cannot be signalled through a lock store. */
    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("distributed locks have no conditions: lock '" + name()
                + "' cannot wake a waiter in another process");
    }

    /**
     * The calling thread's innermost lease of this lock: its {@link Lease#fencingToken()} is what to pass to the
     * resource the holder writes to.
     *
     * @throws IllegalMonitorStateException if the calling thread does not hold this lock
     */
    public Lease currentLease() {
        Deque<Lease> leases = leasesByThread.get(Thread.currentThread());
        Lease lease = leases == null ? null : leases.peek();
        if (lease == null) {
            throw new IllegalMonitorStateException("thread " + Thread.currentThread().getName()
                    + " does not hold lock '" + name() + "'");
        }
        return lease;
    }

    /** Whether some thread of this process holds this lock through this object. */
    boolean isHeld() {
        return !leasesByThread.isEmpty();
    }

    long lastUsedNanos() {
        return lastUsedNanos;
    }

    Duration leaseTime() {
        return lock.options().leaseTime();
    }

    /** Renews the calling thread's lease for {@code leaseTime}; IllegalStateException if it is not held. */
    void renew(Duration leaseTime) {
        Lease lease;
        try {
            lease = currentLease();
        } catch (IllegalMonitorStateException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        if (!lease.extend(leaseTime)) {
            throw new IllegalStateException("lock '" + name() + "' (fencing token " + lease.fencingToken()
                    + ") was lost: it can no longer be renewed");
        }
    }

    private DistributedLock withLeaseTime(Duration timeToLive) {
        return lock.options().leaseTime().equals(timeToLive) ? lock
                : store.lock(lock.name(), lock.options().withLeaseTime(timeToLive));
    }

    private boolean tryLock(DistributedLock target, Duration wait) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        return pushIfPresent(target.tryAcquire(wait));
    }

    private void lockUninterruptibly(DistributedLock target) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    push(target.acquire());
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

    private boolean pushIfPresent(Optional<Lease> lease) {
        lease.ifPresent(this::push);
        return lease.isPresent();
    }

    private void push(Lease lease) {
        lastUsedNanos = System.nanoTime();
        leasesByThread.computeIfAbsent(Thread.currentThread(), t -> new ArrayDeque<>()).push(lease);
    }

    @Override
    public String toString() {
        return "DistlockLock[" + name() + "]";
    }
}
