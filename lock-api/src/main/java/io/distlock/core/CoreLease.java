package io.distlock.core;

import io.distlock.Arguments;
import io.distlock.Lease;
import io.distlock.LeaseState;
import io.distlock.LockLostException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/** A lease handed to the user: one level of nesting over a shared {@link Hold}. Released at most once. */
final class CoreLease implements Lease {

    private final BackendLockStore store;
    private final Hold hold;
    private final AtomicBoolean released = new AtomicBoolean();

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
        return !released.get() && hold.state() == LeaseState.HELD && hold.withinValidity(System.nanoTime());
    }

    @Override
    public LeaseState state() {
        if (released.get()) {
            return hold.state() == LeaseState.LOST ? LeaseState.LOST : LeaseState.RELEASED;
        }
        return hold.state();
    }

    @Override
    public boolean extend(Duration leaseTime) {
        Arguments.requirePositive(leaseTime, "leaseTime");
        if (released.get()) {
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
        if (!released.compareAndSet(false, true)) {
            return;
        }
        if (hold.depth.decrementAndGet() > 0) {
            if (hold.state() == LeaseState.LOST) {
                throw hold.lostCause();
            }
            return;
        }
        store.releaseHold(hold);
    }

    // releaseAfter: a delayed release of the outermost lease; nested leases release as usual
    @Override
    public void releaseAfter(Duration minHeld) {
        Arguments.requireNonNegative(minHeld, "minHeld");
        if (!released.compareAndSet(false, true)) {
            return;
        }
        if (hold.depth.decrementAndGet() > 0) {
            if (hold.state() == LeaseState.LOST) {
                throw hold.lostCause();
            }
            return;
        }
        store.releaseHoldAfter(hold, minHeld);
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
