package io.distlock.tck;

import io.distlock.LockAdmin;
import io.distlock.spi.Grant;
import io.distlock.spi.LeaseEvents;
import io.distlock.spi.LockBackend;
import io.distlock.spi.Renewal;
import io.distlock.spi.Terms;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * A backend that forwards to a real one; the broken stores override the one operation they get wrong. It has no
 * semaphores, so its admin view lists no permits ({@link ForwardingPermitBackend} has both).
 */
abstract class ForwardingBackend implements LockBackend {

    protected final LockBackend delegate;

    ForwardingBackend(LockBackend delegate) {
        this.delegate = delegate;
    }

    @Override
    public Terms terms() {
        return delegate.terms();
    }

    @Override
    public void attach(LeaseEvents events) {
        delegate.attach(events);
    }

    @Override
    public Grant acquire(String name, Duration leaseTime, Wait wait) throws InterruptedException {
        return delegate.acquire(name, leaseTime, wait);
    }

    @Override
    public boolean release(Grant grant) {
        return delegate.release(grant);
    }

    @Override
    public Set<Grant> renew(List<Renewal> renewals) {
        return delegate.renew(renewals);
    }

    @Override
    public LockAdmin admin() {
        LockAdmin real = delegate.admin();
        return real == null ? null : new LocksOnlyAdmin(real);
    }

    @Override
    public void closing() {
        delegate.closing();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
