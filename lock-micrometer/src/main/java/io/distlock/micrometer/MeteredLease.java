package io.distlock.micrometer;

import io.distlock.Lease;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/** A {@link Lease} that tells {@link LockStoreMetrics} when it ends and counts explicit renewals. */
final class MeteredLease extends MeteringLease {

    private final LockStoreMetrics metrics;
    private final AtomicBoolean ended = new AtomicBoolean();

    private MeteredLease(Lease lease, LockStoreMetrics metrics) {
        super(lease);
        this.metrics = metrics;
    }

    /** Wraps {@code lease}; the outermost lease of a hold also watches for its loss. */
    static Lease watch(Lease lease, LockStoreMetrics metrics) {
        if (metrics.leaseStarted(lease.lockName(), lease.fencingToken())) {
            lease.onLost(metrics::leaseLost);
        }
        return new MeteredLease(lease, metrics);
    }

    @Override
    public boolean extend(Duration leaseTime) {
        metrics.renewed();
        return super.extend(leaseTime);
    }

    /** The hold ends for the metrics whether or not the store's release succeeds. */
    @Override
    void end(Ending ending) {
        try {
            ending.run();
        } finally {
            if (ended.compareAndSet(false, true)) {
                metrics.leaseEnded(lease.lockName(), lease.fencingToken());
            }
        }
    }
}
