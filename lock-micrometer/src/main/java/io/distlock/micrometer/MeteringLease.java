package io.distlock.micrometer;

import io.distlock.Lease;
import io.distlock.LeaseState;
import io.distlock.LockLostException;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * A {@link Lease} that forwards to the store's lease and lets its subclass record the end of the hold: the one place
 * the metered lock lease and the metered permit forward from, so they differ only in what they record.
 */
abstract class MeteringLease implements Lease {

    /** One way of ending the hold at the store: {@link Lease#release()} or {@link Lease#releaseAfter}. */
    interface Ending {
        void run();
    }

    protected final Lease lease;

    MeteringLease(Lease lease) {
        this.lease = lease;
    }

    /** Runs {@code ending} against the store's lease and records that the hold ended (or how it failed). */
    abstract void end(Ending ending);

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
        end(lease::release);
    }

    /** The hold ends here for the metrics, although the store keeps the lock until {@code minHeld}. */
    @Override
    public void releaseAfter(Duration minHeld) {
        end(() -> lease.releaseAfter(minHeld));
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
