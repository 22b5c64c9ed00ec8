package io.distlock.micrometer;

import io.distlock.Lease;
import io.distlock.LeaseState;
import io.distlock.LockLostException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/** A {@link Lease} that tells {@link LockStoreMetrics} when it ends and counts explicit renewals. */
final class MeteredLease implements Lease {

    private final Lease lease;
    private final LockStoreMetrics metrics;
    private final AtomicBoolean ended = new AtomicBoolean();

    private MeteredLease(Lease lease, LockStoreMetrics metrics) {
        this.lease = lease;
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
        metrics.renewed();
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
        } finally {
            ended();
        }
    }

    /** The held time ends here for the metrics, although the store keeps the lock until {@code minHeld}. */
    @Override
    public void releaseAfter(Duration minHeld) {
        try {
            lease.releaseAfter(minHeld);
        } finally {
            ended();
        }
    }

    @Override
    public void close() {
        release();
    }

    private void ended() {
        if (ended.compareAndSet(false, true)) {
            metrics.leaseEnded(lease.lockName(), lease.fencingToken());
        }
    }

    @Override
    public String toString() {
        return lease.toString();
    }
}
