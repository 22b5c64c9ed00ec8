package io.distlock.shedlock;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * A ShedLock {@link ExtensibleLockProvider} over a distlock {@link LockStore}, so that {@code @SchedulerLock} tasks
 * get store-clock expiry, crash release and fencing tokens without changing their annotations.
 *
 * <ul>
 *   <li>{@code lockAtMostFor} is the lease time, not renewed: a node that hangs or dies holds the lock at most that
 *       long, measured by the store (Redis TTL, the database's clock) or until its session ends (ZooKeeper).</li>
 *   <li>{@code lockAtLeastFor}: when the task ends earlier, the lease is kept and released by this provider's timer
 *       thread once {@code lockAtLeastFor} has passed since acquisition. If the node crashes in between, the lock
 *       frees when its lease ends: after {@code lockAtMostFor} on time-bound stores (later than asked, never
 *       earlier), but at the end of its session on ZooKeeper, which may be before {@code lockAtLeastFor}.</li>
 *   <li>It never waits, as ShedLock expects: one attempt, empty if another node holds the lock. A lock this
 *       provider still holds (also while it keeps it for {@code lockAtLeastFor}) is reported taken without asking
 *       the store, so the same node never runs the task again early, whichever thread it schedules on.</li>
 *   <li>A store that cannot be reached raises {@link io.distlock.StoreUnavailableException}: ShedLock then skips
 *       the run, never runs it unlocked.</li>
 * </ul>
 * Lock names are ShedLock's names behind a prefix ({@value #DEFAULT_PREFIX} unless given). Close the provider to
 * release the leases it keeps; it does not close the store.
 */
public final class DistlockLockProvider implements ExtensibleLockProvider, AutoCloseable {

    /** The prefix put before ShedLock's lock names unless another is given. */
    public static final String DEFAULT_PREFIX = "shedlock:";

    private static final System.Logger LOG = System.getLogger(DistlockLockProvider.class.getName());

    private final LockStore store;
    private final String prefix;
    private final ConcurrentHashMap<String, Lease> held = new ConcurrentHashMap<>();
    private final ScheduledThreadPoolExecutor timer;

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
            Thread t = new Thread(r, "distlock-shedlock-release");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
    }

    @Override
    public Optional<SimpleLock> lock(LockConfiguration config) {
        String name = prefix + config.getName();
        if (held.containsKey(name)) {
            return Optional.empty();
        }
        LockOptions options = LockOptions.defaults().withLeaseTime(config.getLockAtMostFor()).withAutoRenew(false);
        Optional<Lease> lease = store.lock(name, options).tryAcquire();
        if (lease.isEmpty()) {
            return Optional.empty();
        }
        if (held.putIfAbsent(name, lease.get()) != null) {
            // another thread of this provider registered the name meanwhile: this is not a new acquisition
            lease.get().release();
            return Optional.empty();
        }
        return Optional.of(new DistlockSimpleLock(this, name, lease.get(), config, System.nanoTime()));
    }

    /**
     * The lease this provider holds now for ShedLock lock {@code lockName}, for example to pass its
     * {@link Lease#fencingToken()} to the resource the task writes to.
     */
    public Optional<Lease> lease(String lockName) {
        return Optional.ofNullable(held.get(prefix + lockName));
    }

    /** Ends a hold: at once, or once {@code keepNanos} have passed. */
    void releaseAfter(String name, Lease lease, long keepNanos) {
        if (keepNanos <= 0 || timer.isShutdown()) {
            release(name, lease);
            return;
        }
        timer.schedule(() -> release(name, lease), keepNanos, TimeUnit.NANOSECONDS);
    }

    private void release(String name, Lease lease) {
        held.remove(name, lease);
        try {
            lease.release();
        } catch (io.distlock.LockLostException e) {
            LOG.log(System.Logger.Level.WARNING, "ShedLock task lock ''{0}'' was lost before it was released "
                    + "(the task ran longer than lockAtMostFor, or the store lost it): runs may have overlapped; {1}",
                    name, e.getMessage());
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "could not release ShedLock task lock ''" + name
                    + "''; it frees itself when its lease time ends", e);
        }
    }

    /** Extends a lease for a new lockAtMostFor; false if it is no longer held. */
    boolean extend(Lease lease, Duration lockAtMostFor) {
        return lease.extend(lockAtMostFor);
    }

    /** Releases at once every lease kept for lockAtLeastFor. Does not close the store. */
    @Override
    public void close() {
        timer.shutdownNow();
        held.forEach(this::release);
    }

    @Override
    public String toString() {
        return "DistlockLockProvider[" + store + ", prefix=" + prefix + "]";
    }
}
