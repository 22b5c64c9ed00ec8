package io.distlock.core;

import io.distlock.LeaseModel;
import io.distlock.spi.Grant;
import io.distlock.spi.LeaseEvents;
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
final class CountingPermitBackend implements LockBackend, PermitBackend {

    final LockBackend delegate;
    final PermitBackend permits;
    final AtomicInteger lockRenewCalls = new AtomicInteger();
    final AtomicInteger permitRenewCalls = new AtomicInteger();
    final AtomicInteger permitRenewals = new AtomicInteger();
    final AtomicInteger permitAcquiresInFlight = new AtomicInteger();
    final AtomicInteger maxPermitAcquiresInFlight = new AtomicInteger();
    final AtomicInteger permitReleases = new AtomicInteger();
    volatile LeaseEvents events;
    volatile boolean losePermitsBeforeHandingThemOver;

    CountingPermitBackend(LockBackend delegate) {
        this.delegate = delegate;
        this.permits = (PermitBackend) delegate;
    }

    @Override
    public LeaseModel leaseModel() {
        return delegate.leaseModel();
    }

    @Override
    public int maxNameLength() {
        return delegate.maxNameLength();
    }

    @Override
    public void attach(LeaseEvents events) {
        this.events = events;
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
        maxPermitAcquiresInFlight.accumulateAndGet(permitAcquiresInFlight.incrementAndGet(), Math::max);
        try {
            Grant grant = permits.acquirePermit(name, limit, leaseTime, wait);
            if (grant != null && losePermitsBeforeHandingThemOver) {
                events.lost(grant, "permit node vanished right after the grant");
            }
            return grant;
        } finally {
            permitAcquiresInFlight.decrementAndGet();
        }
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

    @Override
    public void close() {
        delegate.close();
    }
}
