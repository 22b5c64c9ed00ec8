package io.distlock.micrometer;

import io.distlock.Lease;
import io.distlock.LockLostException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A permit {@link Lease} that tells {@link PermitMetrics} once when it ends: released, or lost (its loss signal or a
 * release that reports the loss).
 */
final class MeteredPermit extends MeteringLease {

    private final PermitMetrics.Meters meters;
    private final AtomicBoolean ended = new AtomicBoolean();

    private MeteredPermit(Lease lease, PermitMetrics.Meters meters) {
        super(lease);
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

    /** The permit counts as released here, or as lost if the store's release reports the loss. */
    @Override
    void end(Ending ending) {
        try {
            ending.run();
        } catch (LockLostException e) {
            lost(e);
            throw e;
        }
        if (ended.compareAndSet(false, true)) {
            meters.released();
        }
    }
}
