package io.distlock.core;

import io.distlock.LeaseState;
import io.distlock.LockStoreListener;
import io.distlock.spi.CorePoints;
import io.distlock.spi.Grant;
import io.distlock.spi.LeaseClock;
import io.distlock.spi.LockBackend;
import io.distlock.spi.PermitBackend;
import io.distlock.spi.Renewal;
import java.lang.System.Logger.Level;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Renews auto-renewed leases and ends expired ones, with the two jobs on separate threads: a clock thread that never
 * calls the store fires each lease's local deadline on time and picks the leases due for renewal; renew calls run on
 * their own threads, so a call blocked in the store delays neither a deadline nor the renewals of other leases.
 * Renewals are batched: a tick renews every lease due within half a renewal interval in one {@link LockBackend#renew}
 * call, so many leases cost the store a few round trips, not one each. A failed renewal (of any kind) is retried with
 * a growing back-off until the lease's local deadline; a lease the store no longer has is declared lost at once.
 */
final class RenewalScheduler {

    private static final System.Logger LOG = System.getLogger(RenewalScheduler.class.getName());

    private final LockBackend backend;
    private final String storeName;
    private final BiConsumer<Hold, String> onLost;
    private final Consumer<Hold> releaseOrphan;
    /** The backend's permit operations, or null; permit holds are renewed through them, in batches of their own. */
    private final PermitBackend permits;
    /** A test backend's yield points ({@link CorePoints}), or null. */
    private final CorePoints points;
    private final Set<Hold> holds = ConcurrentHashMap.newKeySet();
    private final ScheduledThreadPoolExecutor clock;
    private final ExecutorService calls;
    private final ReentrantLock scheduleLock = new ReentrantLock();
    private final AtomicBoolean failing = new AtomicBoolean();
    private ScheduledFuture<?> next; // guarded by scheduleLock
    /**
     * When the pending tick runs, {@link Long#MAX_VALUE} while none is pending. Written under scheduleLock; read
     * without it by {@link #scheduleBy}'s fast path, so a hold due after the pending tick costs no lock.
     */
    private volatile long nextAt = Long.MAX_VALUE;
    /** Told of each renewal round trip (metrics). */
    private final LockStoreListener listener;

    /**
     * @param onLost declares a hold lost
     * @param releaseOrphan frees in the store a grant whose renewal succeeded after its hold was already lost here
     */
    RenewalScheduler(LockBackend backend, String storeName, LockStoreListener listener,
            BiConsumer<Hold, String> onLost, Consumer<Hold> releaseOrphan) {
        this.backend = backend;
        this.listener = listener;
        this.permits = backend instanceof PermitBackend p ? p : null;
        this.points = backend instanceof CorePoints p ? p : null;
        this.storeName = storeName;
        this.onLost = onLost;
        this.releaseOrphan = releaseOrphan;
        this.clock = new ScheduledThreadPoolExecutor(1, daemons("distlock-lease-clock-" + storeName));
        clock.setRemoveOnCancelPolicy(true);
        this.calls = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
                daemons("distlock-renewal-" + storeName));
    }

    private static ThreadFactory daemons(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /**
     * Watches a hold's lease time. A session-bound hold has none (it is neither renewed nor expired here), so it is
     * not tracked at all and costs this scheduler nothing.
     */
    void track(Hold hold) {
        if (hold.sessionBound) {
            return;
        }
        holds.add(hold);
        // the hold is in the set before nextAt is read; a tick clears nextAt before it walks the set: either this
        // sees no tick pending and schedules one, or the tick it saw pending finds the hold
        VarHandle.fullFence();
        scheduleBy(hold.nextDeadlineNanos());
    }

    void untrack(Hold hold) {
        holds.remove(hold);
    }

    void shutdown() {
        clock.shutdownNow();
        calls.shutdownNow();
    }

    /** Plans a tick by {@code dueNanos} (a hold's next deadline, also after it moved) unless one comes first. */
    void scheduleBy(long dueNanos) {
        if (dueNanos == Long.MAX_VALUE) {
            return;
        }
        long pending = nextAt;
        if (pending != Long.MAX_VALUE && dueNanos - pending >= 0) {
            return; // the pending tick comes first and plans the next one from every hold (see track)
        }
        scheduleLock.lock();
        try {
            if (clock.isShutdown() || (next != null && !next.isDone() && dueNanos - nextAt >= 0)) {
                return;
            }
            if (next != null) {
                next.cancel(false);
            }
            nextAt = dueNanos;
            long delay = Math.max(0, dueNanos - System.nanoTime());
            next = clock.schedule(this::tick, delay, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closed) {
            // the store is closing
        } finally {
            scheduleLock.unlock();
        }
    }

    /** On the clock thread: ends expired leases and hands the due ones to a renew call. Never calls the store. */
    private void tick() {
        scheduleLock.lock();
        try {
            nextAt = Long.MAX_VALUE;
            next = null;
        } finally {
            scheduleLock.unlock();
        }
        VarHandle.fullFence(); // no tick pending is visible before the holds are walked (see track)
        try {
            long now = System.nanoTime();
            List<Hold> due = new ArrayList<>();
            List<Hold> duePermits = new ArrayList<>();
            for (Hold hold : holds) {
                if (!hold.isActive()) {
                    holds.remove(hold);
                } else if (hold.expiredAt(now)) {
                    onLost.accept(hold, "its lease time of " + hold.leaseTime() + " ran out without renewal");
                } else if (hold.renewalDueAt(now) && hold.startRenewal()) {
                    (hold.permit ? duePermits : due).add(hold);
                }
            }
            startRenewal(due);
            startRenewal(duePermits);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "lease clock of store " + storeName + " failed unexpectedly", e);
        } finally {
            scheduleNextTick();
        }
    }

    /** Hands one batch (all locks or all permits) to a renewal thread. */
    private void startRenewal(List<Hold> due) {
        if (!due.isEmpty()) {
            try {
                calls.execute(() -> renew(due));
            } catch (RejectedExecutionException closed) {
                due.forEach(Hold::endRenewal);
            }
        }
    }

    private void scheduleNextTick() {
        long earliest = Long.MAX_VALUE;
        for (Hold hold : holds) {
            long due = hold.nextDeadlineNanos();
            if (due - earliest < 0) {
                earliest = due;
            }
        }
        if (earliest != Long.MAX_VALUE) {
            scheduleBy(Math.max(earliest, System.nanoTime() + LeaseClock.MIN_TICK_NANOS));
        }
    }

    /**
     * Claims {@code hold}'s store calls for a renewal; a test backend's {@link CorePoints} point comes first, since a
     * release may come in between the caller's look at the hold and this claim.
     */
    private boolean claimForRenewal(Hold hold) {
        if (points != null) {
            points.reached("renewal-claim", hold.grant);
        }
        return hold.tryClaimStoreCall();
    }

    /**
     * On a renewal thread: one renew call for the due holds whose store calls are free (an {@code extend} in progress
     * renews its hold itself). Validity counts from the moment the call was sent, with the lease time it carried.
     */
    private void renew(List<Hold> due) {
        List<Hold> sent = new ArrayList<>(due.size());
        List<Renewal> renewals = new ArrayList<>(due.size());
        try {
            for (Hold hold : due) {
                if (hold.isActive() && claimForRenewal(hold)) {
                    if (!hold.isActive()) { // released (or released after a minimum hold) while we claimed it
                        hold.endStoreCall();
                        continue;
                    }
                    sent.add(hold);
                    renewals.add(new Renewal(hold.grant, hold.leaseTime()));
                } else {
                    hold.postponeRenewal(System.nanoTime());
                }
            }
            if (renewals.isEmpty()) {
                return;
            }
            long sentAt = System.nanoTime();
            Set<Grant> lost;
            try {
                lost = sent.get(0).permit ? permits.renewPermits(renewals) : backend.renew(renewals);
            } catch (RuntimeException e) {
                long now = System.nanoTime();
                listener.renewalFailed(sent.size(), now - sentAt, e);
                sent.forEach(hold -> hold.renewalFailed(now));
                if (failing.compareAndSet(false, true)) {
                    LOG.log(Level.WARNING, "renewing leases in store " + storeName + " fails; retrying with back-off "
                            + "until each lease's time runs out: " + e, e);
                } else {
                    LOG.log(Level.DEBUG, "renewal in store " + storeName + " failed again: " + e);
                }
                return;
            }
            listener.renewed(sent.size(), lost.size(), System.nanoTime() - sentAt);
            if (failing.compareAndSet(true, false)) {
                LOG.log(Level.INFO, "renewing leases in store " + storeName + " works again");
            }
            for (int i = 0; i < sent.size(); i++) {
                Hold hold = sent.get(i);
                if (lost.contains(hold.grant)) {
                    onLost.accept(hold, "the store no longer had it at renewal (expired, deleted, or taken over)");
                } else if (hold.state() == LeaseState.LOST) {
                    // its deadline passed while this call was on its way: nobody holds it here any more
                    releaseOrphan.accept(hold);
                } else {
                    hold.leaseSet(sentAt, renewals.get(i).leaseTime());
                }
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "lease renewal in store " + storeName + " failed unexpectedly", e);
        } finally {
            for (Hold hold : sent) {
                hold.endStoreCall();
            }
            due.forEach(Hold::endRenewal);
            scheduleNextTick();
        }
    }
}
