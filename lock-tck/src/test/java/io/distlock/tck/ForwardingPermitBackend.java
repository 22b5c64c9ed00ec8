package io.distlock.tck;

import io.distlock.LockAdmin;
import io.distlock.spi.Grant;
import io.distlock.spi.LockBackend;
import io.distlock.spi.PermitBackend;
import io.distlock.spi.Renewal;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/** A backend with permits that forwards to a real one; broken semaphore stores override what they get wrong. */
abstract class ForwardingPermitBackend extends ForwardingBackend implements PermitBackend {

    protected final PermitBackend permits;

    ForwardingPermitBackend(LockBackend delegate) {
        super(delegate);
        this.permits = (PermitBackend) delegate;
    }

    /** The real admin view, permits and all. */
    @Override
    public LockAdmin admin() {
        return delegate.admin();
    }

    @Override
    public PermitBackend permits() {
        return this;
    }

    @Override
    public int maxPermits() {
        return permits.maxPermits();
    }

    @Override
    public Grant acquirePermit(String name, int limit, Duration leaseTime, Wait wait)
            throws InterruptedException {
        return permits.acquirePermit(name, limit, leaseTime, wait);
    }

    @Override
    public boolean releasePermit(Grant grant) {
        return permits.releasePermit(grant);
    }

    @Override
    public Set<Grant> renewPermits(List<Renewal> renewals) {
        return permits.renewPermits(renewals);
    }

    @Override
    public int heldPermits(String name) {
        return permits.heldPermits(name);
    }
}
