package io.distlock.micrometer;

import io.distlock.Lease;
import io.distlock.LeaseState;
import io.distlock.LockLostException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * A permit {@link Lease} that tells {@link PermitMetrics} once when it ends: released, or lost (its loss signal or a
 * release that reports the loss).
 */
final class MeteredPermit implements Lease {

    private final Lease lease;
    private final PermitMetrics.Meters meters;
    private final AtomicBoolean ended = new AtomicBoolean();

    private MeteredPermit(Lease lease, PermitMetrics.Meters meters) {
        this.lease = lease;
        this.meters = meters;
    }

    /** Wraps {@code permit}, watching for its loss. */
    static Lease watch(Lease permit, PermitMetrics.Meters meters) {
        MeteredPermit metered = new MeteredPermit(permit, meters);
        permit.onLost(metered::lost);
        return metered;
    }

    private void lost(LockLostException e) {
        if (ended.compareAndSet(false, true)) {
            meters.lost(e);
        }
    }

    @Override
    public String lockName() {
        return lease.lockName();
    }

    @Override
    public long fencingToken() {
        return lease.fencingToken();
    }

    @Override
    public boolean isValid() {
        return lease.isValid();
    }

    @Override
    public LeaseState state() {
        return lease.state();
    }

    @Override
    public boolean extend(Duration leaseTime) {
        return lease.extend(leaseTime);
    }

    @Override
    public void onLost(Consumer<? super LockLostException> listener) {
        lease.onLost(listener);
    }

    @Override
    public void release() {
        try {
            lease.release();
        } catch (LockLostException e) {
            lost(e);
            throw e;
        }
        if (ended.compareAndSet(false, true)) {
            meters.released();
        }
    }

    /** The permit counts as released here, although the store keeps it until {@code minHeld}. */
    @Override
    public void releaseAfter(Duration minHeld) {
        try {
            lease.releaseAfter(minHeld);
        } catch (LockLostException e) {
            lost(e);
            throw e;
        }
        if (ended.compareAndSet(false, true)) {
            meters.released();
        }
    }

    @Override
    public void close() {
        release();
    }

    @Override
    public String toString() {
        return lease.toString();
    }
}
