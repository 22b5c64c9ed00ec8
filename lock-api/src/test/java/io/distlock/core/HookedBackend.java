package io.distlock.core;

import io.distlock.LockAdmin;
import io.distlock.spi.Grant;
import io.distlock.spi.HandOvers;
import io.distlock.spi.LockBackend;
import io.distlock.spi.PermitBackend;
import io.distlock.spi.Renewal;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * A real mem: backend, locks, hand-overs and permits, with hooks the attacks on the core's per-name state use: a
 * latch a hand-over waits at before its store operation (so a close, a timeout or another thread can strike it
 * there), and what a hand-over's or a permit acquire's new grant goes through before the core has it (a loss
 * reported there).
 */
final class HookedBackend extends CountingBackendBase implements HandOvers, PermitBackend {

    private final HandOvers handOvers;
    private final PermitBackend permits;
    /** When set, each hand-over counts down {@link #handOverEntered} and waits here before its store operation. */
    volatile CountDownLatch handOverGate;
    final CountDownLatch handOverEntered = new CountDownLatch(1);
    /** What each hand-over's new grant goes through before the core has it. */
    volatile UnaryOperator<Grant> afterHandOver = UnaryOperator.identity();
    /** The last grant this backend made (acquire, hand-over or permit), for a test to drop behind the core's back. */
    volatile Grant lastGrant;
    /** The grant the last hand-over passed on (the released one). */
    volatile Grant handedOverFrom;
    /** When set, each permit acquire counts down {@link #permitEntered} and waits here before its store call. */
    volatile CountDownLatch permitGate;
    final CountDownLatch permitEntered = new CountDownLatch(1);
    /** What each permit grant goes through before the core has it. */
    volatile UnaryOperator<Grant> afterPermit = UnaryOperator.identity();
    /** Permit acquires running now (this client's threads contending in the store), and the most seen at once. */
    final AtomicInteger permitCalls = new AtomicInteger();
    final AtomicInteger mostPermitCalls = new AtomicInteger();

    HookedBackend(LockBackend delegate) {
        super(delegate);
        this.handOvers = (HandOvers) delegate;
        this.permits = delegate.permits();
    }

    @Override
    public Grant acquire(String name, Duration leaseTime, Wait wait) throws InterruptedException {
        return last(delegate.acquire(name, leaseTime, wait));
    }

    private Grant last(Grant grant) {
        if (grant != null) {
            lastGrant = grant;
        }
        return grant;
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
    public Grant handOver(Grant from, Duration leaseTime, Thread receiver) {
        CountDownLatch gate = handOverGate;
        if (gate != null) {
            handOverEntered.countDown();
            boolean interrupted = false;
            while (true) {
                try {
                    gate.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        handedOverFrom = from;
        Grant grant = handOvers.handOver(from, leaseTime, receiver);
        return grant == null ? null : afterHandOver.apply(last(grant));
    }

    /** Passed on: the real backend wakes its waiters so they see the closing store's stopped waits at once. */
    @Override
    public void closing() {
        delegate.closing();
    }

    @Override
    public PermitBackend permits() {
        return this;
    }

    @Override
    public LockAdmin admin() {
        return delegate.admin();
    }

    @Override
    public int maxPermits() {
        return permits.maxPermits();
    }

    @Override
    public Grant acquirePermit(String name, int limit, Duration leaseTime, Wait wait) throws InterruptedException {
        mostPermitCalls.accumulateAndGet(permitCalls.incrementAndGet(), Math::max);
        try {
            return hookedPermit(name, limit, leaseTime, wait);
        } finally {
            permitCalls.decrementAndGet();
        }
    }

    private Grant hookedPermit(String name, int limit, Duration leaseTime, Wait wait) throws InterruptedException {
        CountDownLatch gate = permitGate;
        if (gate != null) {
            permitEntered.countDown();
            gate.await();
        }
        Grant grant = permits.acquirePermit(name, limit, leaseTime, wait);
        return grant == null ? null : afterPermit.apply(last(grant));
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
