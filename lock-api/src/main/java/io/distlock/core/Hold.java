package io.distlock.core;

import io.distlock.Arguments;
import io.distlock.LeaseState;
import io.distlock.LockLostException;
import io.distlock.LockOptions;
import io.distlock.spi.Grant;
import io.distlock.spi.LeaseClock;
import java.lang.System.Logger.Level;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The store-level ownership of one lock by one store: the grant, the owning thread (for reentrancy), the nesting
 * depth, its state, its timing and its lost-listeners. Every {@link CoreLease} of a nesting shares one hold.
 *
 * <p>Timing: the hold knows when its lease was last set in the store (the moment the request was sent and the lease
 * time it carried), and from that, with {@link LeaseClock}, when it expires locally and when it is due for renewal.
 * Requests that set the lease (background renewal, {@code extend}) go one at a time through a store-call claim
 * ({@link #tryClaimStoreCall}, {@link #claimStoreCall}, {@link #endStoreCall}), so the store and the local clock see
 * them in the same order.
 *
 * <p>Memory: a process may hold many thousands of leases, so a hold keeps its flags, counters and state in plain
 * fields changed through {@link VarHandle}s rather than one atomic object each, makes its listener list only when a
 * listener is added, and makes the lock that blocked store-call claimers wait on only when one has to wait.
 */
final class Hold {

    private static final System.Logger LOG = System.getLogger(Hold.class.getName());

    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
    private static final VarHandle STATE = varHandle(LOOKUP, "state", LeaseState.class);
    private static final VarHandle DEPTH = varHandle(LOOKUP, "depth", int.class);
    private static final VarHandle GATE_OPENED = varHandle(LOOKUP, "gateOpened", boolean.class);
    private static final VarHandle RENEWING = varHandle(LOOKUP, "renewing", boolean.class);
    private static final VarHandle STORE_CALL = varHandle(LOOKUP, "storeCall", boolean.class);
    private static final VarHandle STORE_CALL_WAITS = varHandle(LOOKUP, "storeCallWaits", StoreCallWaits.class);
    private static final VarHandle LISTENERS = varHandle(LOOKUP, "listeners", CopyOnWriteArrayList.class);
    private static final VarHandle LOST_CAUSE = varHandle(LOOKUP, "lostCause", LockLostException.class);

    final Grant grant;
    final Thread owner;
    /** The options the hold was acquired with; a nested acquisition must ask for the same. */
    final LockOptions options;
    final boolean autoRenew;
    /** Whether the lease lives with the store session (no local expiry) rather than by lease time. */
    final boolean sessionBound;
    /** Whether this is a semaphore permit (released and renewed through the permit operations) or a lock. */
    final boolean permit;
    /** Nesting depth: the leases of this hold not yet released; 0 once the outermost is. Through {@link #DEPTH}. */
    @SuppressWarnings("unused")
    private volatile int depth = 1;
    /** Through {@link #STATE}. */
    private volatile LeaseState state = LeaseState.HELD;
    /** Whether {@link #openGate()} ran; through {@link #GATE_OPENED}. */
    @SuppressWarnings("unused")
    private volatile boolean gateOpened;
    /** The state of the hold's name, in use while the hold is: its gate opens (once) when released or lost. */
    final NameState gate;
    /** The lost-listeners, made by the first {@link #addListener}; through {@link #LISTENERS}. */
    private volatile CopyOnWriteArrayList<OnceListener> listeners;
    /** Why the hold was lost: the first reason written wins, through {@link #LOST_CAUSE}, so every reader sees one. */
    private volatile LockLostException lostCause;
    private volatile Duration leaseTime;
    /** Local estimate of the store-side expiry (nanoTime); Long.MAX_VALUE for session-bound leases. */
    private volatile long validUntilNanos;
    /** When the next background renewal is due (nanoTime). */
    private volatile long nextRenewNanos;
    /** Renewal failures in a row, for the back-off. */
    private volatile int failures;
    /** Whether a background renewal of this hold is in flight; through {@link #RENEWING}. */
    private volatile boolean renewing;
    /** Whether a lease-setting store call holds the claim; through {@link #STORE_CALL}. */
    private volatile boolean storeCall;
    /** Where blocked claimers wait; made by the first one that has to. Through {@link #STORE_CALL_WAITS}. */
    private volatile StoreCallWaits storeCallWaits;
    /** When the acquisition returned to the caller (nanoTime): releaseAfter counts its minimum hold from here. */
    volatile long acquiredAtNanos;

    Hold(Grant grant, Thread owner, LockOptions options, boolean sessionBound, NameState gate) {
        this.permit = gate.isPermit();
        this.grant = grant;
        this.owner = owner;
        this.options = options;
        this.leaseTime = options.leaseTime();
        this.autoRenew = options.autoRenew();
        this.sessionBound = sessionBound;
        this.gate = gate;
        this.validUntilNanos = Long.MAX_VALUE;
        this.nextRenewNanos = Long.MAX_VALUE;
    }

    /**
     * The handle of field {@code name} of {@code lookup}'s class, for a static initializer: the core keeps flags and
     * counters of its many small objects (holds, leases, locks) in plain fields changed through such handles.
     */
    static VarHandle varHandle(MethodHandles.Lookup lookup, String name, Class<?> type) {
        try {
            return lookup.findVarHandle(lookup.lookupClass(), name, type);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
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

    /**
     * Whether a background renewal is due by {@code nowNanos}. Regular renewals may go up to half an interval early,
     * to share a batch; a retry after a failure waits out its back-off.
     */
    boolean renewalDueAt(long nowNanos) {
        if (!autoRenew || sessionBound || renewing) {
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
        return autoRenew && !renewing ? Math.min(nextRenewNanos, until) : until;
    }

    /** Claims the hold for one background renewal; false if one is in flight already. */
    boolean startRenewal() {
        return RENEWING.compareAndSet(this, false, true);
    }

    /** Ends the background renewal claimed by {@link #startRenewal()}. */
    void endRenewal() {
        renewing = false;
    }

    // ---- store calls: one lease-setting call at a time ------------------------------------------------------------

    /** Claims the hold for one lease-setting store call if none has it; pair a success with {@link #endStoreCall}. */
    boolean tryClaimStoreCall() {
        return STORE_CALL.compareAndSet(this, false, true);
    }

    /**
     * Claims the hold for one lease-setting store call, waiting (uninterruptibly, on a {@link ReentrantLock}, so a
     * virtual thread does not pin) while another has it; pair with {@link #endStoreCall}.
     */
    void claimStoreCall() {
        if (tryClaimStoreCall()) {
            return;
        }
        StoreCallWaits waits = storeCallWaits();
        waits.lock.lock();
        try {
            while (!tryClaimStoreCall()) {
                waits.freed.awaitUninterruptibly();
            }
        } finally {
            waits.lock.unlock();
        }
    }

    /**
     * Ends the claim of {@link #tryClaimStoreCall} or {@link #claimStoreCall} and wakes claimers waiting for it. The
     * claim is freed before the waits are looked at, and a claimer makes the waits before it tries again, so either
     * this sees the waits or that claimer sees the claim free.
     */
    void endStoreCall() {
        storeCall = false;
        StoreCallWaits waits = storeCallWaits;
        if (waits != null) {
            waits.lock.lock();
            try {
                waits.freed.signalAll();
            } finally {
                waits.lock.unlock();
            }
        }
    }

    private StoreCallWaits storeCallWaits() {
        StoreCallWaits waits = storeCallWaits;
        if (waits == null) {
            StoreCallWaits made = new StoreCallWaits();
            waits = STORE_CALL_WAITS.compareAndSet(this, null, made) ? made : storeCallWaits;
        }
        return waits;
    }

    /** The lock and condition claimers wait on while another store call of the hold is in progress. */
    private static final class StoreCallWaits {
        final ReentrantLock lock = new ReentrantLock();
        final Condition freed = lock.newCondition();
    }

    // ---- nesting --------------------------------------------------------------------------------------------------

    /** One more nested lease on this hold; false if the outermost was released already (then it is not nested). */
    boolean nest() {
        while (true) {
            int d = (int) DEPTH.getVolatile(this);
            if (d <= 0) {
                return false;
            }
            if (DEPTH.compareAndSet(this, d, d + 1)) {
                return true;
            }
        }
    }

    /** One nested lease released: the leases of the hold still unreleased (0 once the outermost is). */
    int unnest() {
        return (int) DEPTH.getAndAdd(this, -1) - 1;
    }

    // ---- state ----------------------------------------------------------------------------------------------------

    LeaseState state() {
        return state;
    }

    boolean isActive() {
        LeaseState s = state;
        return s == LeaseState.HELD || s == LeaseState.UNCERTAIN;
    }

    /** HELD or UNCERTAIN to RELEASED; false if the hold was already lost or released. */
    boolean markReleased() {
        while (isActive()) {
            if (fromActive(LeaseState.RELEASED)) {
                return true;
            }
        }
        return false;
    }

    /** An active hold to {@code to}: false if the state was neither HELD nor UNCERTAIN (or moved between the two). */
    private boolean fromActive(LeaseState to) {
        return STATE.compareAndSet(this, LeaseState.HELD, to) || STATE.compareAndSet(this, LeaseState.UNCERTAIN, to);
    }

    void markUncertain() {
        STATE.compareAndSet(this, LeaseState.HELD, LeaseState.UNCERTAIN);
    }

    void markCertain() {
        STATE.compareAndSet(this, LeaseState.UNCERTAIN, LeaseState.HELD);
    }

    /** Marks the hold lost and tells the listeners; false if it was no longer active. */
    boolean markLost(String reason) {
        while (isActive()) {
            LOST_CAUSE.compareAndSet(this, null, lostCause(reason)); // the first reason written is the one told
            if (fromActive(LeaseState.LOST)) {
                fireListeners();
                return true;
            }
        }
        return false;
    }

    /** What a use of this hold after its loss throws: a lease on its lock, or on its semaphore for a permit. */
    private LockLostException lostCause(String reason) {
        return permit ? LockLostException.ofPermit(grant.name(), grant.fencingToken(), reason)
                : new LockLostException(grant.name(), grant.fencingToken(), reason);
    }

    /** A released hold whose store lock turned out to be gone already: RELEASED to LOST, listeners told. */
    void markLostAtRelease(String reason) {
        LOST_CAUSE.compareAndSet(this, null, lostCause(reason));
        if (STATE.compareAndSet(this, LeaseState.RELEASED, LeaseState.LOST)) {
            fireListeners();
        }
    }

    LockLostException lostCause() {
        return lostCause;
    }

    /**
     * Adds a lost-listener; it runs once the hold is lost, at once if it is already. The listener is in the list
     * before the state is read, and a loss sets the state before it reads the list, so one of the two runs it.
     */
    void addListener(Consumer<? super LockLostException> listener) {
        OnceListener once = new OnceListener(listener);
        CopyOnWriteArrayList<OnceListener> list = listeners;
        if (list == null) {
            CopyOnWriteArrayList<OnceListener> made = new CopyOnWriteArrayList<>();
            list = LISTENERS.compareAndSet(this, null, made) ? made : listeners;
        }
        list.add(once);
        if (state == LeaseState.LOST) {
            once.fire();
        }
    }

    private void fireListeners() {
        CopyOnWriteArrayList<OnceListener> list = listeners;
        if (list != null) {
            list.forEach(OnceListener::fire);
        }
    }

    /**
     * A listener that runs at most once, whether the loss or the registration comes first: its own flag (true once
     * fired), with no atomic object of its own.
     */
    private final class OnceListener extends AtomicBoolean {
        private final Consumer<? super LockLostException> listener;

        OnceListener(Consumer<? super LockLostException> listener) {
            this.listener = listener;
        }

        void fire() {
            if (!compareAndSet(false, true)) {
                return;
            }
            try {
                listener.accept(lostCause);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "lost-lease listener of lock " + Arguments.quoted(grant.name()) + " threw", e);
            }
        }
    }

    /** Lets the next local thread through this lock's gate; runs once however often called. */
    void openGate() {
        if (GATE_OPENED.compareAndSet(this, false, true)) {
            gate.opened(this);
        }
    }
}
