package io.distlock.shedlock;

import io.distlock.Arguments;
import io.distlock.Lease;
import io.distlock.LockLostException;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * A ShedLock {@link ExtensibleLockProvider} over a distlock {@link LockStore}, so that {@code @SchedulerLock} tasks
 * get store-clock expiry, crash release and fencing tokens without changing their annotations.
 *
 * <ul>
 *   <li>{@code lockAtMostFor} is the lease time, not renewed: a node that dies holds the lock at most that long,
 *       measured by the store (Redis TTL, the database's clock), or until its session ends (ZooKeeper). A node
 *       that is alive but whose task runs past {@code lockAtMostFor} has its lock released by this provider's
 *       timer then, on every store, as ShedLock specifies (the task is not stopped).</li>
 *   <li>{@code lockAtLeastFor}: when the task ends earlier, the lease is kept and released by the timer once
 *       {@code lockAtLeastFor} has passed since acquisition. If the node crashes in between, the lock frees when
 *       its lease ends: after {@code lockAtMostFor} on time-bound stores (later than asked, never earlier), but at
 *       the end of its session on ZooKeeper, which may be before {@code lockAtLeastFor}.</li>
 *   <li>It never waits, as ShedLock expects: one attempt, empty if another node holds the lock. A lock this
 *       provider still holds (also while it keeps it for {@code lockAtLeastFor}) is reported taken without asking
 *       the store, so the same node never runs the task again early, whichever thread it schedules on.</li>
 *   <li>A store that cannot be reached raises {@link io.distlock.StoreUnavailableException}: ShedLock then skips
 *       the run, never runs it unlocked.</li>
 * </ul>
 * Lock names are ShedLock's names behind a prefix ({@value #DEFAULT_PREFIX} unless given). Close the provider to
 * release the leases it keeps; it does not close the store. A closed provider refuses {@code lock()} with
 * {@link IllegalStateException}, never returning a lock it has released.
 */
public final class DistlockLockProvider implements ExtensibleLockProvider, AutoCloseable {

    /** The prefix put before ShedLock's lock names unless another is given. */
    public static final String DEFAULT_PREFIX = "shedlock:";

    private static final System.Logger LOG = System.getLogger(DistlockLockProvider.class.getName());

    private final LockStore store;
    private final String prefix;
    private final ConcurrentHashMap<String, Held> held = new ConcurrentHashMap<>();
    private final ScheduledThreadPoolExecutor timer;
    /** Set by {@link #close()} before it releases what is held; read by {@link #lock} after it registers a hold. */
    private volatile boolean closed;

    /** A provider whose locks are named {@value #DEFAULT_PREFIX} + ShedLock's name. */
    public DistlockLockProvider(LockStore store) {
        this(store, DEFAULT_PREFIX);
    }

    /**
     * A provider whose locks are named {@code prefix} + ShedLock's name.
     *
     * @throws NullPointerException if {@code store} or {@code prefix} is null
     */
    public DistlockLockProvider(LockStore store, String prefix) {
        this.store = Objects.requireNonNull(store, "store must not be null");
        this.prefix = Objects.requireNonNull(prefix, "prefix must not be null");
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "distlock-shedlock-timer");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
    }

    /**
     * One attempt at ShedLock's lock.
     *
     * @throws IllegalStateException if this provider was closed: a closed provider hands out no lock (it could not
     *         keep or end one), so ShedLock runs nothing
     */
    @Override
    public Optional<SimpleLock> lock(LockConfiguration config) {
        ensureOpen();
        String name = prefix + config.getName();
        if (held.containsKey(name)) {
            return Optional.empty();
        }
        LockOptions options = LockOptions.defaults().withLeaseTime(config.getLockAtMostFor()).withAutoRenew(false);
        Optional<Lease> lease = store.lock(name, options).tryAcquire();
        if (lease.isEmpty()) {
            return Optional.empty();
        }
        Held hold = new Held(name, lease.get());
        if (held.putIfAbsent(name, hold) != null) {
            // another thread of this provider registered the name meanwhile: this is not a new acquisition
            lease.get().release();
            return Optional.empty();
        }
        // registered, then look: a close() that began before this put sees it and releases it (it set closed first)
        if (closed) {
            hold.release();
            throw closedException();
        }
        if (!hold.capAt(config.getLockAtMostFor().toNanos())) {
            throw closedException(); // closed meanwhile: the lease is released already
        }
        return Optional.of(new DistlockSimpleLock(hold, config, System.nanoTime()));
    }

    private void ensureOpen() {
        if (closed) {
            throw closedException();
        }
    }

    private IllegalStateException closedException() {
        return new IllegalStateException("ShedLock provider " + this + " is closed: it hands out no more locks");
    }

    /**
     * The lease this provider holds now for ShedLock lock {@code lockName}, for example to pass its
     * {@link Lease#fencingToken()} to the resource the task writes to.
     */
    public Optional<Lease> lease(String lockName) {
        Held hold = held.get(prefix + lockName);
        return hold == null ? Optional.empty() : Optional.of(hold.lease);
    }

    /**
     * Releases at once every lease this provider holds or keeps for lockAtLeastFor; afterwards {@link #lock} throws
     * {@link IllegalStateException}. Does not close the store.
     */
    @Override
    public void close() {
        closed = true;
        timer.shutdownNow();
        held.values().forEach(Held::release);
    }

    @Override
    public String toString() {
        return "DistlockLockProvider[" + store + ", prefix=" + prefix + "]";
    }

    /** One lease taken for ShedLock, with the timer task that ends it (at lockAtMostFor, or after lockAtLeastFor). */
    final class Held {
        final String name;
        final Lease lease;
        private ScheduledFuture<?> timeout;
        private final AtomicBoolean released = new AtomicBoolean();

        Held(String name, Lease lease) {
            this.name = name;
            this.lease = lease;
        }

        /**
         * Releases the lease {@code nanos} from now unless unlocked or extended first: the lockAtMostFor cap. False if
         * the timer is shut down (the provider was closed): the lease is released now instead.
         */
        synchronized boolean capAt(long nanos) {
            return schedule(this::expire, nanos);
        }

        /** The task ended: release now, or once {@code keepNanos} have passed (lockAtLeastFor). */
        synchronized void unlockAfter(long keepNanos) {
            if (keepNanos <= 0) {
                cancelTimeout();
                release();
            } else {
                schedule(this::release, keepNanos);
            }
        }

        /** Renews the lease for a new lockAtMostFor; false if it is no longer held. */
        synchronized boolean extend(Duration lockAtMostFor) {
            if (!lease.extend(lockAtMostFor)) {
                return false;
            }
            return schedule(this::expire, lockAtMostFor.toNanos()); // false: closed meanwhile, released now
        }

        /** Schedules {@code task} in place of the pending one; false (and released now) if the timer is shut down. */
        private boolean schedule(Runnable task, long nanos) {
            cancelTimeout();
            if (!timer.isShutdown()) {
                try {
                    timeout = timer.schedule(task, nanos, TimeUnit.NANOSECONDS);
                    return true;
                } catch (RejectedExecutionException shutDownMeanwhile) {
                    // closed between the check and the call: released below
                }
            }
            release();
            return false;
        }

        private void cancelTimeout() {
            if (timeout != null) {
                timeout.cancel(false);
                timeout = null;
            }
        }

        private void expire() {
            LOG.log(Level.WARNING, "ShedLock task lock {0} reached its lockAtMostFor while the task still ran: "
                    + "released, another node may start the task now", Arguments.quoted(name));
            release();
        }

        /** Releases the lease once, however often called (the timer, unlock and close may all get here). */
        void release() {
            held.remove(name, this);
            if (!released.compareAndSet(false, true)) {
                return;
            }
            try {
                lease.release();
            } catch (LockLostException e) {
                LOG.log(Level.WARNING, "ShedLock task lock {0} was lost before it was released (the task ran "
                        + "longer than lockAtMostFor, or the store lost it): runs may have overlapped; {1}",
                        Arguments.quoted(name), e.getMessage());
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "could not release ShedLock task lock " + Arguments.quoted(name)
                        + "; it frees itself when its lease time ends", e);
            }
        }
    }
}
