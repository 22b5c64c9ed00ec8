package io.distlock.spring.integration;

import io.distlock.Arguments;
import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.LockLostException;
import io.distlock.LockStore;
import io.distlock.spi.InterruptFlag;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ConcurrentModificationException;
import java.util.Deque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;

/**
 * A Spring Integration {@link org.springframework.integration.support.locks.DistributedLock} over a distlock lock,
 * keeping the contract of Spring Integration's own registries:
 * <ul>
 *   <li>reentrant per thread; a nested acquisition checks in the store that the thread's lease is still held (see
 *       {@link DistributedLock}), so after a takeover it is not granted while another node holds the lock;</li>
 *   <li>a nested {@code lock(Duration)} or {@code tryLock(wait, ttl)} re-enters whatever its time to live, and sets
 *       the shared lease's time to live to it, as Spring Integration's registries do;</li>
 *   <li>{@code unlock()} from a thread that holds nothing throws {@link IllegalMonitorStateException};</li>
 *   <li>a lease lost while held (expired, taken over, force-released) is reported once, at the outermost
 *       {@code unlock()}, with {@link ConcurrentModificationException} (its cause the
 *       {@link io.distlock.LockLostException}), as Spring Integration's registries report it; nested unlocks of a
 *       lost lease just unwind.</li>
 * </ul>
 * The lease is available to its holder through {@link #currentLease()}, for its fencing token.
 */
public final class DistlockLock implements org.springframework.integration.support.locks.DistributedLock {

    private final LockStore store;
    private final DistributedLock lock;
    private final ConcurrentHashMap<Thread, Holding> holdings = new ConcurrentHashMap<>();
    /** Threads of this process inside an acquisition of this lock (waiting for it, or asking the store). */
    private final AtomicInteger acquiring = new AtomicInteger();
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
        lockUninterruptibly(null);
    }

    @Override
    public void lock(Duration timeToLive) {
        lockUninterruptibly(timeToLive);
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        tryAcquire(null, DistributedLock::acquire);
    }

    @Override
    public boolean tryLock() {
        try {
            return tryAcquire(null, target -> target.tryAcquire().orElse(null));
        } catch (InterruptedException e) {
            throw new AssertionError("a single attempt does not throw InterruptedException", e);
        }
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        return timedTryLock(null, Duration.ofNanos(Math.max(0, unit.toNanos(time))));
    }

    @Override
    public boolean tryLock(Duration waitTime, Duration timeToLive) throws InterruptedException {
        return timedTryLock(timeToLive, waitTime);
    }

    @Override
    public void unlock() {
        Thread me = Thread.currentThread();
        Holding holding = holdings.get(me);
        if (holding == null || holding.leases.isEmpty()) {
            throw new IllegalMonitorStateException("thread " + me.getName() + " does not hold lock "
                    + Arguments.quoted(name()));
        }
        Lease lease = holding.leases.pop();
        boolean outermost = holding.leases.isEmpty();
        if (outermost) {
            holdings.remove(me);
        }
        lastUsedNanos = System.nanoTime();
        try {
            lease.release();
        } catch (LockLostException lost) {
            if (outermost) {
                throw new ConcurrentModificationException("lock " + Arguments.quoted(name()) + " (fencing token "
                        + lost.fencingToken() + ") was lost while held: " + lost.getMessage()
                        + "; the data it protects may have been changed by another holder meanwhile", lost);
            }
            // a nested unlock of a lost lease: the loss is reported once, at the outermost unlock
        }
    }

    /** Not supported: a waiter in another process cannot be signalled through a lock store. */
    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("distributed locks have no conditions: lock " + Arguments.quoted(name())
                + " cannot wake a waiter in another process");
    }

    /**
     * The calling thread's innermost lease of this lock: its {@link Lease#fencingToken()} is what to pass to the
     * resource the holder writes to.
     *
     * @throws IllegalMonitorStateException if the calling thread does not hold this lock
     */
    public Lease currentLease() {
        Holding holding = holdings.get(Thread.currentThread());
        Lease lease = holding == null ? null : holding.leases.peek();
        if (lease == null) {
            throw new IllegalMonitorStateException("thread " + Thread.currentThread().getName()
                    + " does not hold lock " + Arguments.quoted(name()));
        }
        return lease;
    }

    /** Whether some thread of this process holds this lock through this object, or is acquiring it. */
    boolean isInUse() {
        return !holdings.isEmpty() || acquiring.get() > 0;
    }

    long lastUsedNanos() {
        return lastUsedNanos;
    }

    Duration leaseTime() {
        Holding holding = holdings.get(Thread.currentThread());
        return holding == null ? lock.options().leaseTime() : holding.target.options().leaseTime();
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
            throw new IllegalStateException("lock " + Arguments.quoted(name()) + " (fencing token "
                    + lease.fencingToken()
                    + ") was lost: it can no longer be renewed");
        }
    }

    private boolean timedTryLock(Duration timeToLive, Duration wait) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        return tryAcquire(timeToLive, target -> target.tryAcquire(wait).orElse(null));
    }

    private void lockUninterruptibly(Duration timeToLive) {
        InterruptFlag.uninterruptibly(() -> tryAcquire(timeToLive, DistributedLock::acquire));
    }

    /**
     * One acquisition by the calling thread: a nested one through the lock (and so the options) its outermost
     * acquisition used, then set to {@code timeToLive} if one is given and differs; a first one through the lock
     * with {@code timeToLive} as its lease time (null: the registry's). Counted in {@link #acquiring} meanwhile, so
     * that expiring unused locks keeps it.
     */
    private boolean tryAcquire(Duration timeToLive, Attempt attempt) throws InterruptedException {
        Thread me = Thread.currentThread();
        Holding holding = holdings.get(me);
        DistributedLock target = holding != null ? holding.target
                : timeToLive == null ? lock : withLeaseTime(timeToLive);
        acquiring.incrementAndGet();
        Lease lease;
        try {
            lastUsedNanos = System.nanoTime();
            lease = attempt.run(target);
        } finally {
            acquiring.decrementAndGet();
        }
        if (lease == null) {
            return false;
        }
        lastUsedNanos = System.nanoTime();
        if (holding == null) {
            holding = new Holding(target);
            holdings.put(me, holding);
        }
        holding.leases.push(lease);
        if (timeToLive != null && !timeToLive.equals(target.options().leaseTime())) {
            lease.extend(timeToLive); // false: lost meanwhile, which the outermost unlock reports
        }
        return true;
    }

    private DistributedLock withLeaseTime(Duration timeToLive) {
        return lock.options().leaseTime().equals(timeToLive) ? lock
                : store.lock(lock.name(), lock.options().withLeaseTime(timeToLive));
    }

    /** One acquire call on the lock: a lease, or null if not acquired. */
    @FunctionalInterface
    private interface Attempt {
        Lease run(DistributedLock target) throws InterruptedException;
    }

    /** One thread's hold: the lock its outermost acquisition went through, and its leases, innermost first. */
    private static final class Holding {
        final DistributedLock target;
        final Deque<Lease> leases = new ArrayDeque<>();

        Holding(DistributedLock target) {
            this.target = target;
        }
    }

    @Override
    public String toString() {
        return "DistlockLock[" + name() + "]";
    }
}
