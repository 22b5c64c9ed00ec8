package io.distlock.core;

import io.distlock.LeaseState;
import io.distlock.LockLostException;
import io.distlock.LockOptions;
import io.distlock.spi.Grant;
import io.distlock.spi.LeaseClock;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The store-level ownership of one lock by one store: the grant, the owning thread (for reentrancy), the nesting
 * depth, its state, its timing and its lost-listeners. Every {@link CoreLease} of a nesting shares one hold.
 *
 * <p>Timing: the hold knows when its lease was last set in the store (the moment the request was sent and the lease
 * time it carried), and from that, with {@link LeaseClock}, when it expires locally and when it is due for renewal.
 * Requests that set the lease (background renewal, {@code extend}) go one at a time through {@link #storeCalls}, so
 * the store and the local clock see them in the same order.
 */
final class Hold {

    private static final System.Logger LOG = System.getLogger(Hold.class.getName());

    final Grant grant;
    final Thread owner;
    /** The options the hold was acquired with; a nested acquisition must ask for the same. */
    final LockOptions options;
    final boolean autoRenew;
    /** Whether the lease lives with the store session (no local expiry) rather than by lease time. */
    final boolean sessionBound;
    /** Whether this is a semaphore permit (released and renewed through the permit operations) or a lock. */
    final boolean permit;
    /** One lease-setting store call at a time for this hold (renewal or extend); never held by the clock thread. */
    final ReentrantLock storeCalls = new ReentrantLock();
    final AtomicInteger depth = new AtomicInteger(1);
    private final AtomicReference<LeaseState> state = new AtomicReference<>(LeaseState.HELD);
    private final AtomicBoolean gateOpened = new AtomicBoolean();
    private final Runnable openGate;
    private final List<OnceListener> listeners = new CopyOnWriteArrayList<>();
    private volatile LockLostException lostCause;
    private volatile Duration leaseTime;
    /** Local estimate of the store-side expiry (nanoTime); Long.MAX_VALUE for session-bound leases. */
    private volatile long validUntilNanos;
    /** When the next background renewal is due (nanoTime). */
    private volatile long nextRenewNanos;
    /** Renewal failures in a row, for the back-off. */
    private volatile int failures;
    private final AtomicBoolean renewing = new AtomicBoolean();
    /** When the acquisition returned to the caller (nanoTime): releaseAfter counts its minimum hold from here. */
    volatile long acquiredAtNanos;

    Hold(Grant grant, Thread owner, LockOptions options, boolean sessionBound, Runnable openGate) {
        this(grant, owner, options, sessionBound, openGate, false);
    }

    Hold(Grant grant, Thread owner, LockOptions options, boolean sessionBound, Runnable openGate, boolean permit) {
        this.permit = permit;
        this.grant = grant;
        this.owner = owner;
        this.options = options;
        this.leaseTime = options.leaseTime();
        this.autoRenew = options.autoRenew();
        this.sessionBound = sessionBound;
        this.openGate = openGate;
        this.validUntilNanos = Long.MAX_VALUE;
        this.nextRenewNanos = Long.MAX_VALUE;
    }

    // ---- timing ---------------------------------------------------------------------------------------------------

    /**
     * The store set this lease to {@code sentLeaseTime} by a request sent at {@code sentAtNanos}: count its local
     * expiry and next renewal from there. Session-bound leases have neither.
     */
    void leaseSet(long sentAtNanos, Duration sentLeaseTime) {
        leaseTime = sentLeaseTime;
        failures = 0;
        if (sessionBound) {
            return;
        }
        validUntilNanos = sentAtNanos + LeaseClock.validityNanos(sentLeaseTime);
        nextRenewNanos = sentAtNanos + LeaseClock.renewIntervalNanos(sentLeaseTime);
    }

    /** A renewal failed at {@code nowNanos}: retry after a back-off that grows with each failure in a row. */
    void renewalFailed(long nowNanos) {
        int n = failures + 1;
        failures = n;
        nextRenewNanos = nowNanos + LeaseClock.retryDelayNanos(leaseTime, n);
    }

    /** Another store call of this hold is in progress: look again shortly, without counting a failure. */
    void postponeRenewal(long nowNanos) {
        nextRenewNanos = nowNanos + LeaseClock.retryDelayNanos(leaseTime, 1);
    }

    /** The lease time the store was last asked for. */
    Duration leaseTime() {
        return leaseTime;
    }

    /** Whether the local estimate of the store-side expiry has passed. */
    boolean expiredAt(long nowNanos) {
        return !sessionBound && nowNanos - validUntilNanos >= 0;
    }

    /** Whether the local estimate of the store-side expiry is still ahead. */
    boolean withinValidity(long nowNanos) {
        return sessionBound || nowNanos - validUntilNanos < 0;
    }

    /**
     * Whether a background renewal is due by {@code nowNanos}. Regular renewals may go up to half an interval early,
     * to share a batch; a retry after a failure waits out its back-off.
     */
    boolean renewalDueAt(long nowNanos) {
        if (!autoRenew || sessionBound || renewing.get()) {
            return false;
        }
        long early = failures > 0 ? 0 : LeaseClock.renewIntervalNanos(leaseTime) / 2;
        return nowNanos - (nextRenewNanos - early) >= 0;
    }

    /** When the clock must look at this hold next: its renewal, or its expiry while a renewal is in flight. */
    long nextDeadlineNanos() {
        if (sessionBound) {
            return Long.MAX_VALUE;
        }
        long until = validUntilNanos;
        return autoRenew && !renewing.get() ? Math.min(nextRenewNanos, until) : until;
    }

    /** Claims the hold for one background renewal; false if one is in flight already. */
    boolean startRenewal() {
        return renewing.compareAndSet(false, true);
    }

    /** Ends the background renewal claimed by {@link #startRenewal()}. */
    void endRenewal() {
        renewing.set(false);
    }

    // ---- state ----------------------------------------------------------------------------------------------------

    LeaseState state() {
        return state.get();
    }

    boolean isActive() {
        LeaseState s = state.get();
        return s == LeaseState.HELD || s == LeaseState.UNCERTAIN;
    }

    /** HELD or UNCERTAIN to RELEASED; false if the hold was already lost or released. */
    boolean markReleased() {
        while (true) {
            LeaseState s = state.get();
            if (s != LeaseState.HELD && s != LeaseState.UNCERTAIN) {
                return false;
            }
            if (state.compareAndSet(s, LeaseState.RELEASED)) {
                return true;
            }
        }
    }

    void markUncertain() {
        state.compareAndSet(LeaseState.HELD, LeaseState.UNCERTAIN);
    }

    void markCertain() {
        state.compareAndSet(LeaseState.UNCERTAIN, LeaseState.HELD);
    }

    /** Marks the hold lost and tells the listeners; false if it was no longer active. */
    boolean markLost(String reason) {
        while (true) {
            LeaseState s = state.get();
            if (s != LeaseState.HELD && s != LeaseState.UNCERTAIN) {
                return false;
            }
            lostCause = new LockLostException(grant.name(), grant.fencingToken(), reason);
            if (state.compareAndSet(s, LeaseState.LOST)) {
                listeners.forEach(OnceListener::fire);
                return true;
            }
        }
    }

    /** A released hold whose store lock turned out to be gone already: RELEASED to LOST, listeners told. */
    void markLostAtRelease(String reason) {
        lostCause = new LockLostException(grant.name(), grant.fencingToken(), reason);
        if (state.compareAndSet(LeaseState.RELEASED, LeaseState.LOST)) {
            listeners.forEach(OnceListener::fire);
        }
    }

    LockLostException lostCause() {
        return lostCause;
    }

    void addListener(Consumer<? super LockLostException> listener) {
        OnceListener once = new OnceListener(listener);
        listeners.add(once);
        if (state.get() == LeaseState.LOST) {
            once.fire();
        }
    }

    /** A listener that runs at most once, whether the loss or the registration comes first. */
    private final class OnceListener {
        private final Consumer<? super LockLostException> listener;
        private final AtomicBoolean fired = new AtomicBoolean();

        OnceListener(Consumer<? super LockLostException> listener) {
            this.listener = listener;
        }

        void fire() {
            if (!fired.compareAndSet(false, true)) {
                return;
            }
            try {
                listener.accept(lostCause);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "lost-lease listener of lock '" + grant.name() + "' threw", e);
            }
        }
    }

    /** Lets the next local thread through this lock's gate; runs once however often called. */
    void openGate() {
        if (gateOpened.compareAndSet(false, true)) {
            openGate.run();
        }
    }
}
