package io.distlock.core;

import io.distlock.StoreUnavailableException;
import io.distlock.spi.Grant;
import io.distlock.spi.LockBackend;
import io.distlock.spi.Renewal;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;

/**
 * One background thread per store that renews auto-renewed leases and notices expired ones. Renewals are batched:
 * a tick renews every lease due within half a renewal interval in one {@link LockBackend#renew} call, so many
 * leases cost the store a few round trips, not one each. A lease whose renewal keeps failing is declared lost when
 * its local estimate of the store-side expiry passes; a lease the store no longer has is declared lost at once.
 */
final class RenewalScheduler {

    private static final System.Logger LOG = System.getLogger(RenewalScheduler.class.getName());
    private static final long MIN_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    private static final long MAX_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final LockBackend backend;
    private final BiConsumer<Hold, String> onLost;
    private final Set<Hold> holds = ConcurrentHashMap.newKeySet();
    private final ScheduledThreadPoolExecutor executor;
    private final Object scheduleLock = new Object();
    private ScheduledFuture<?> next;
    private long nextAt = Long.MAX_VALUE;

    RenewalScheduler(LockBackend backend, String storeName, BiConsumer<Hold, String> onLost) {
        this.backend = backend;
        this.onLost = onLost;
        this.executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "distlock-renewal-" + storeName);
            t.setDaemon(true);
            return t;
        });
        executor.setRemoveOnCancelPolicy(true);
    }

    /** The part of a lease time the client counts on: the lease minus 1% and 2 ms for clock drift. */
    static long validityNanos(Duration leaseTime) {
        long lease = leaseTime.toNanos();
        return Math.max(0, lease - lease / 100 - TimeUnit.MILLISECONDS.toNanos(2));
    }

    /** How often a lease is renewed: every third of its lease time. */
    static long renewIntervalNanos(Duration leaseTime) {
        return Math.max(MIN_TICK_NANOS, leaseTime.toNanos() / 3);
    }

    void track(Hold hold) {
        holds.add(hold);
        scheduleBy(dueNanos(hold));
    }

    void untrack(Hold hold) {
        holds.remove(hold);
    }

    // ---- ordering for releaseAfter: its write of the expiry must land after any renewal of the hold in flight ----
    private final ReentrantLock ticking = new ReentrantLock();

    /** Stops renewing {@code hold}, then waits for a tick that may be renewing it now (one round trip at most). */
    void untrackAndAwaitInFlight(Hold hold) {
        holds.remove(hold);
        ticking.lock();
        ticking.unlock();
    }

    /** Re-plans the next tick after a hold's deadlines moved. */
    void rescheduleFor(Hold hold) {
        scheduleBy(dueNanos(hold));
    }

    void shutdown() {
        executor.shutdownNow();
    }

    private static long dueNanos(Hold hold) {
        return hold.autoRenew ? Math.min(hold.nextRenewNanos, hold.validUntilNanos) : hold.validUntilNanos;
    }

    private void scheduleBy(long dueNanos) {
        if (dueNanos == Long.MAX_VALUE) {
            return;
        }
        synchronized (scheduleLock) {
            if (executor.isShutdown() || (next != null && !next.isDone() && dueNanos - nextAt >= 0)) {
                return;
            }
            if (next != null) {
                next.cancel(false);
            }
            nextAt = dueNanos;
            long delay = Math.max(0, dueNanos - System.nanoTime());
            next = executor.schedule(this::tick, delay, TimeUnit.NANOSECONDS);
        }
    }

    private void tick() {
        synchronized (scheduleLock) {
            nextAt = Long.MAX_VALUE;
            next = null;
        }
        ticking.lock();
        try {
            renewDue();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "lease renewal failed unexpectedly", e);
        } finally {
            ticking.unlock();
            long earliest = Long.MAX_VALUE;
            for (Hold hold : holds) {
                long due = dueNanos(hold);
                if (due - earliest < 0) {
                    earliest = due;
                }
            }
            if (earliest != Long.MAX_VALUE) {
                scheduleBy(Math.max(earliest, System.nanoTime() + MIN_TICK_NANOS));
            }
        }
    }

    private void renewDue() {
        long now = System.nanoTime();
        List<Hold> due = new ArrayList<>();
        for (Hold hold : holds) {
            if (!hold.isActive()) {
                holds.remove(hold);
            } else if (now - hold.validUntilNanos >= 0) {
                onLost.accept(hold, "its lease time of " + hold.leaseTime + " ran out without renewal");
            } else if (hold.autoRenew && now - (hold.nextRenewNanos - renewIntervalNanos(hold.leaseTime) / 2) >= 0) {
                due.add(hold);
            }
        }
        if (due.isEmpty()) {
            return;
        }
        List<Renewal> renewals = new ArrayList<>(due.size());
        for (Hold hold : due) {
            renewals.add(new Renewal(hold.grant, hold.leaseTime));
        }
        long sentAt = System.nanoTime();
        Set<Grant> lost;
        try {
            lost = backend.renew(renewals);
        } catch (StoreUnavailableException e) {
            LOG.log(Level.DEBUG, "store unavailable during renewal; retrying", e);
            for (Hold hold : due) {
                hold.nextRenewNanos = sentAt + Math.min(MAX_RETRY_NANOS, renewIntervalNanos(hold.leaseTime) / 3);
            }
            return;
        }
        for (Hold hold : due) {
            if (lost.contains(hold.grant)) {
                onLost.accept(hold, "the store no longer had it at renewal (expired, deleted, or taken over)");
            } else {
                hold.validUntilNanos = sentAt + validityNanos(hold.leaseTime);
                hold.nextRenewNanos = sentAt + renewIntervalNanos(hold.leaseTime);
            }
        }
    }
}
