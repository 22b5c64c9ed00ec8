package io.distlock.core;

import io.distlock.LeaseState;
import io.distlock.LockLostException;
import io.distlock.spi.Grant;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The store-level ownership of one lock by one store: the grant, the owning thread (for reentrancy), the nesting
 * depth, its state, its deadlines and its lost-listeners. Every {@link CoreLease} of a nesting shares one hold.
 */
final class Hold {

    private static final System.Logger LOG = System.getLogger(Hold.class.getName());

    final Grant grant;
    final Thread owner;
    final boolean autoRenew;
    final AtomicInteger depth = new AtomicInteger(1);
    private final AtomicReference<LeaseState> state = new AtomicReference<>(LeaseState.HELD);
    private final AtomicBoolean gateOpened = new AtomicBoolean();
    private final Runnable openGate;
    private final List<OnceListener> listeners = new CopyOnWriteArrayList<>();
    private volatile LockLostException lostCause;
    volatile Duration leaseTime;
    /** Local estimate of the store-side expiry (nanoTime); Long.MAX_VALUE for session-bound leases. */
    volatile long validUntilNanos;
    /** When the next background renewal is due (nanoTime). */
    volatile long nextRenewNanos;
    /** When the acquisition returned to the caller (nanoTime): releaseAfter counts its minimum hold from here. */
    volatile long acquiredAtNanos;

    Hold(Grant grant, Thread owner, Duration leaseTime, boolean autoRenew, Runnable openGate) {
        this.grant = grant;
        this.owner = owner;
        this.leaseTime = leaseTime;
        this.autoRenew = autoRenew;
        this.openGate = openGate;
    }

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
