package io.distlock.core;

import io.distlock.Arguments;
import io.distlock.Lease;
import io.distlock.LeaseState;
import io.distlock.LockLostException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * A lease handed to the user: one level of nesting over a shared {@link Hold}. Released at most once; the flag is a
 * plain field claimed through a {@link VarHandle}, not an atomic object of its own, as a lease lives as long as it
 * is held.
 */
final class CoreLease implements Lease {

    private static final VarHandle RELEASED = Hold.varHandle(MethodHandles.lookup(), "released", boolean.class);

    private final BackendLockStore store;
    private final Hold hold;
    /** Through {@link #RELEASED}. */
    private volatile boolean released;

    CoreLease(BackendLockStore store, Hold hold) {
        this.store = store;
        this.hold = hold;
    }

    @Override
    public String lockName() {
        return hold.grant.name();
    }

    @Override
    public long fencingToken() {
        return hold.grant.fencingToken();
    }

    @Override
    public boolean isValid() {
        return !released && hold.state() == LeaseState.HELD && !hold.expiredAt(System.nanoTime());
    }

    @Override
    public LeaseState state() {
        if (released) {
            return hold.state() == LeaseState.LOST ? LeaseState.LOST : LeaseState.RELEASED;
        }
        return hold.state();
    }

    @Override
    public boolean extend(Duration leaseTime) {
        Arguments.requirePositive(leaseTime, "leaseTime");
        if (released) {
            return false;
        }
        return store.extend(hold, leaseTime);
    }

    @Override
    public void onLost(Consumer<? super LockLostException> listener) {
        java.util.Objects.requireNonNull(listener, "listener must not be null");
        hold.addListener(listener);
    }

    @Override
    public void release() {
        release(null);
    }

    @Override
    public void releaseAfter(Duration minHeld) {
        release(Arguments.requireNonNegative(minHeld, "minHeld"));
    }

    /** Releases this level of nesting; the outermost releases the hold, after {@code minHeld} unless null. */
    private void release(Duration minHeld) {
        if (!RELEASED.compareAndSet(this, false, true)) {
            return;
        }
        if (hold.unnest() > 0) {
            if (hold.state() == LeaseState.LOST) {
                throw hold.lostCause();
            }
            return;
        }
        store.releaseHold(hold, minHeld);
    }

    @Override
    public void close() {
        release();
    }

    @Override
    public String toString() {
        return "Lease[" + lockName() + ", fence=" + fencingToken() + ", " + state() + "]";
    }
}
