package io.distlock.core;

import io.distlock.Arguments;
import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.spi.Grant;
import io.distlock.spi.LeaseEvents;
import io.distlock.spi.LeaseModel;
import io.distlock.spi.LockAdmin;
import io.distlock.spi.LockBackend;
import io.distlock.spi.Renewal;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The {@link LockStore} every backend shares: it turns a {@link LockBackend}'s store operations into the public API.
 * It keeps the per-thread reentrancy, the local FIFO gate per name, the renewal thread, lease states and
 * lost-lease signals, so each backend writes only acquire, release and renew. Providers return
 * {@code new BackendLockStore(backend, redactedUri)}.
 */
public final class BackendLockStore implements LockStore {

    private static final System.Logger LOG = System.getLogger(BackendLockStore.class.getName());

    private final LockBackend backend;
    private final String description;
    private final LocalGates gates = new LocalGates();
    private final ConcurrentHashMap<String, Hold> holds = new ConcurrentHashMap<>();
    private final RenewalScheduler renewals;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final DelayedReleases delayedReleases;
    /** Losses a backend reported for a grant before the core registered its hold (a race at acquisition). */
    private final ConcurrentHashMap<Grant, EarlyLoss> earlyLosses = new ConcurrentHashMap<>();
    private static final long EARLY_LOSS_KEPT_NANOS = TimeUnit.SECONDS.toNanos(60);

    /** A loss reported before its hold was registered, kept for a minute at most. */
    private record EarlyLoss(String reason, long atNanos) {
    }

    /**
     * A store over {@code backend}.
     *
     * @param backend the store operations
     * @param description how to show this store in messages: its URI without passwords
     */
    public BackendLockStore(LockBackend backend, String description) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.description = Objects.requireNonNull(description, "description");
        this.renewals = new RenewalScheduler(backend, description, this::lose);
        this.delayedReleases = new DelayedReleases(backend, description);
        backend.attach(new Events());
    }

    /** The backend behind this store, for backend-specific tests and tools. */
    public LockBackend backend() {
        return backend;
    }

    @Override
    public DistributedLock lock(String name, LockOptions options) {
        Arguments.requireLockName(name, backend.maxNameLength());
        Objects.requireNonNull(options, "options must not be null");
        return new CoreLock(this, name, options);
    }

    @Override
    public LockAdmin admin() {
        LockAdmin admin = backend.admin();
        if (admin == null) {
            throw new UnsupportedOperationException("store " + description + " offers no admin view");
        }
        return admin;
    }

    /** Acquires {@code name}; timeoutNanos: 0 one attempt, negative no limit. Returns null if not acquired. */
    Lease acquire(String name, LockOptions options, long timeoutNanos) throws InterruptedException {
        ensureOpen();
        Thread me = Thread.currentThread();
        Lease nested = nestedLease(name, me);
        if (nested != null) {
            return nested;
        }
        long deadline = System.nanoTime() + Math.max(timeoutNanos, 0);
        LocalGates.Gate gate = gates.enter(name);
        boolean permitted = false;
        boolean handedOver = false;
        try {
            if (timeoutNanos < 0) {
                gate.permit.acquire();
                permitted = true;
            } else if (timeoutNanos == 0) {
                permitted = gate.permit.tryAcquire();
            } else {
                permitted = gate.permit.tryAcquire(timeoutNanos, TimeUnit.NANOSECONDS);
            }
            if (!permitted) {
                return null;
            }
            long left = timeoutNanos <= 0 ? timeoutNanos : Math.max(0, deadline - System.nanoTime());
            long calledAt = System.nanoTime();
            Grant grant = backend.acquire(name, options.leaseTime(), left);
            if (grant == null) {
                return null;
            }
            long acquiredAt = System.nanoTime();
            Hold hold = new Hold(grant, me, options.leaseTime(), options.autoRenew(), () -> {
                gate.permit.release();
                gates.leave(name);
            });
            hold.acquiredAtNanos = acquiredAt;
            startClock(hold, grant.issuedAtNanos() >= 0 ? grant.issuedAtNanos() : calledAt);
            holds.put(name, hold);
            handedOver = true;
            renewals.track(hold);
            EarlyLoss lostEarly = earlyLosses.remove(grant);
            if (lostEarly != null) {
                lose(hold, lostEarly.reason());
            }
            if (closed.get()) {
                lose(hold, "its store was closed");
                releaseQuietly(hold.grant);
                throw new IllegalStateException("store " + description + " was closed while acquiring '" + name + "'");
            }
            return new CoreLease(this, hold);
        } finally {
            if (!handedOver) {
                if (permitted) {
                    gate.permit.release();
                }
                gates.leave(name);
            }
        }
    }

    private Lease nestedLease(String name, Thread me) {
        Hold existing = holds.get(name);
        if (existing == null || existing.owner != me || !existing.isActive()) {
            return null;
        }
        int before = existing.depth.getAndUpdate(d -> d > 0 ? d + 1 : d);
        return before > 0 ? new CoreLease(this, existing) : null;
    }

    private void startClock(Hold hold, long issuedAt) {
        if (backend.leaseModel() == LeaseModel.SESSION) {
            hold.validUntilNanos = Long.MAX_VALUE;
            hold.nextRenewNanos = Long.MAX_VALUE;
        } else {
            hold.validUntilNanos = issuedAt + RenewalScheduler.validityNanos(hold.leaseTime);
            hold.nextRenewNanos = issuedAt + RenewalScheduler.renewIntervalNanos(hold.leaseTime);
        }
    }

    /** Releases the store lock of an outermost lease. */
    void releaseHold(Hold hold) {
        holds.remove(hold.grant.name(), hold);
        renewals.untrack(hold);
        if (!hold.markReleased()) {
            // lost before: still free it in the store if it is somehow ours, then report the loss
            releaseQuietly(hold.grant);
            hold.openGate();
            throw hold.lostCause();
        }
        boolean stillOurs;
        try {
            stillOurs = backend.release(hold.grant);
        } finally {
            hold.openGate();
        }
        if (!stillOurs) {
            hold.markLostAtRelease("the store no longer had it at release: it expired or was taken over while held");
            throw hold.lostCause();
        }
    }

    // ---- releaseAfter (Lease.releaseAfter): keep the store lock until minHeld, then let it free ----

    /**
     * Releases an outermost lease but keeps the store lock until {@code minHeld} has passed since acquisition: on
     * time-bound stores by setting its expiry to the time left (one renew, nothing deleted), on session-bound ones
     * by deleting it later on a distlock thread. No time left: a plain {@link #releaseHold}.
     */
    void releaseHoldAfter(Hold hold, Duration minHeld) {
        long leftNanos = hold.acquiredAtNanos + saturatedNanos(minHeld) - System.nanoTime();
        if (leftNanos < TimeUnit.MILLISECONDS.toNanos(1) || hold.state() == io.distlock.LeaseState.LOST) {
            releaseHold(hold);
            return;
        }
        holds.remove(hold.grant.name(), hold);
        if (!hold.markReleased()) {
            releaseHold(hold); // lost meanwhile: reported as release reports it
            return;
        }
        renewals.untrackAndAwaitInFlight(hold);
        if (backend.leaseModel() == LeaseModel.SESSION) {
            delayedReleases.releaseLater(hold.grant, leftNanos);
            hold.openGate();
            return;
        }
        Set<Grant> lost;
        try {
            Duration left = Duration.ofMillis((leftNanos + 999_999) / 1_000_000); // rounded up: never shorter
            lost = backend.renew(List.of(new Renewal(hold.grant, left)));
        } finally {
            hold.openGate();
        }
        if (lost.contains(hold.grant)) {
            hold.markLostAtRelease("the store no longer had it at release: it expired or was taken over while held");
            throw hold.lostCause();
        }
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE / 4;
        }
    }

    /** Renews one lease now; false if it is no longer held. */
    boolean extend(Hold hold, Duration leaseTime) {
        if (!hold.isActive()) {
            return false;
        }
        if (backend.leaseModel() == LeaseModel.SESSION) {
            return hold.isActive();
        }
        long sentAt = System.nanoTime();
        Set<Grant> lost = backend.renew(List.of(new Renewal(hold.grant, leaseTime)));
        if (lost.contains(hold.grant)) {
            lose(hold, "the store no longer had it when extended");
            return false;
        }
        hold.leaseTime = leaseTime;
        startClock(hold, sentAt);
        renewals.rescheduleFor(hold);
        return hold.isActive();
    }

    /** Declares a hold lost: tells its listeners and lets the next local waiter through. */
    private void lose(Hold hold, String reason) {
        lose(hold, reason, Level.WARNING);
    }

    /** As {@link #lose(Hold, String)}, logged at {@code level}: a close is expected, an expiry is not. */
    private void lose(Hold hold, String reason, Level level) {
        if (hold.markLost(reason)) {
            LOG.log(level, "lease on lock ''{0}'' (fencing token {1}) of store {2} lost: {3}",
                    hold.grant.name(), hold.grant.fencingToken(), description, reason);
        }
        holds.remove(hold.grant.name(), hold);
        renewals.untrack(hold);
        hold.openGate();
    }

    private void releaseQuietly(Grant grant) {
        try {
            backend.release(grant);
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "could not release " + grant + " in " + description, e);
        }
    }

    private void ensureOpen() {
        if (closed.get()) {
            throw new IllegalStateException("store " + description + " is closed");
        }
    }

    /** Number of local gates in use (for tests: gates must not leak). */
    int gatesInUse() {
        return gates.size();
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (Hold hold : holds.values()) {
            lose(hold, "its store was closed", Level.DEBUG);
            releaseQuietly(hold.grant);
        }
        renewals.shutdown();
        delayedReleases.shutdown();
        backend.close();
    }

    @Override
    public String toString() {
        return "LockStore[" + description + "]";
    }

    /** Connection events from session-bound backends. */
    private final class Events implements LeaseEvents {
        @Override
        public void suspended() {
            holds.values().forEach(Hold::markUncertain);
        }

        @Override
        public void reconnected() {
            holds.values().forEach(Hold::markCertain);
        }

        @Override
        public void sessionLost(String reason) {
            holds.values().forEach(hold -> lose(hold, reason));
        }

        @Override
        public void lost(Grant grant, String reason) {
            Hold hold = holds.get(grant.name());
            if (hold != null && hold.grant.equals(grant)) {
                lose(hold, reason);
                return;
            }
            // the hold may not be registered yet (acquire is between the backend's grant and holds.put): keep the
            // loss for acquire to find, then look once more in case acquire registered it meanwhile
            long now = System.nanoTime();
            earlyLosses.values().removeIf(e -> now - e.atNanos() > EARLY_LOSS_KEPT_NANOS);
            earlyLosses.put(grant, new EarlyLoss(reason, now));
            Hold registered = holds.get(grant.name());
            EarlyLoss early;
            if (registered != null && registered.grant.equals(grant) && (early = earlyLosses.remove(grant)) != null) {
                lose(registered, early.reason());
            }
        }
    }
}
