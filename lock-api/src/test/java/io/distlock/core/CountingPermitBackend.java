package io.distlock.core;

import io.distlock.spi.Grant;
import io.distlock.spi.LockBackend;
import io.distlock.spi.PermitBackend;
import io.distlock.spi.Renewal;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real mem: backend, locks and permits, with counters: permit acquires in flight, renew calls of each kind, and a
 * switch that reports each permit grant lost before the core has it.
 */
final class CountingPermitBackend extends CountingBackendBase implements PermitBackend {

    final PermitBackend permits;
    final AtomicInteger lockRenewCalls = new AtomicInteger();
    final AtomicInteger permitRenewCalls = new AtomicInteger();
    final AtomicInteger permitRenewals = new AtomicInteger();
    final AtomicInteger permitAcquiresInFlight = new AtomicInteger();
    final AtomicInteger maxPermitAcquiresInFlight = new AtomicInteger();
    final AtomicInteger permitReleases = new AtomicInteger();
    volatile boolean losePermitsBeforeHandingThemOver;

    CountingPermitBackend(LockBackend delegate) {
        super(delegate);
        this.permits = (PermitBackend) delegate;
    }

    @Override
    public PermitBackend permits() {
        return this;
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
        lockRenewCalls.incrementAndGet();
        return delegate.renew(renewals);
    }

    @Override
    public int maxPermits() {
        return permits.maxPermits();
    }

    @Override
    public Grant acquirePermit(String name, int limit, Duration leaseTime, Wait wait)
            throws InterruptedException {
        return countedInFlight(permitAcquiresInFlight, maxPermitAcquiresInFlight, () -> {
            Grant grant = permits.acquirePermit(name, limit, leaseTime, wait);
            return losePermitsBeforeHandingThemOver ? lostFirst(grant, "permit node vanished right after the grant")
                    : grant;
        });
    }

    @Override
    public boolean releasePermit(Grant grant) {
        permitReleases.incrementAndGet();
        return permits.releasePermit(grant);
    }

    @Override
    public Set<Grant> renewPermits(List<Renewal> renewals) {
        permitRenewCalls.incrementAndGet();
        permitRenewals.addAndGet(renewals.size());
        return permits.renewPermits(renewals);
    }

    @Override
    public int heldPermits(String name) {
        return permits.heldPermits(name);
    }
}
