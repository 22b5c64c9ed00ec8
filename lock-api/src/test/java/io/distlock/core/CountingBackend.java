package io.distlock.core;

import io.distlock.LeaseModel;
import io.distlock.StoreUnavailableException;
import io.distlock.spi.Grant;
import io.distlock.spi.HandOvers;
import io.distlock.spi.LeaseEvents;
import io.distlock.spi.LockBackend;
import io.distlock.spi.OthersWaiting;
import io.distlock.spi.Renewal;
import io.distlock.spi.Terms;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real mem: backend with counters around it: renew calls and renewals, acquire calls in flight, acquire, release and
 * hand-over calls, and switches to make renewals fail as if the store were down, to report leases as session-bound,
 * or to have hand-overs report other clients waiting. {@link #withoutHandOvers()} is the same backend as a store
 * without hand-overs (Redlock, ZooKeeper) offers it.
 */
final class CountingBackend extends CountingBackendBase implements HandOvers {

    final AtomicInteger renewCalls = new AtomicInteger();
    final AtomicInteger renewals = new AtomicInteger();
    final AtomicInteger acquiresInFlight = new AtomicInteger();
    final AtomicInteger maxAcquiresInFlight = new AtomicInteger();
    final AtomicBoolean storeDown = new AtomicBoolean();
    final AtomicInteger acquireCalls = new AtomicInteger();
    /** When each acquire call began (System.nanoTime), in order. */
    final List<Long> acquireStarts = new CopyOnWriteArrayList<>();
    final AtomicInteger releaseCalls = new AtomicInteger();
    final AtomicInteger handOverCalls = new AtomicInteger();
    volatile LeaseModel model = LeaseModel.TIME;
    /** When set, the backend reports each grant lost before handing it to the core (the acquisition race). */
    volatile boolean loseGrantsBeforeHandingThemOver;
    /** When set, the store drops each grant and reports it lost before handing it to the core. */
    volatile boolean dropGrantsBeforeHandingThemOver;
    /** When positive, grants carry this fencing token instead of the store's. */
    volatile long fenceOverride;
    /** When set, hand-over grants say this about other clients waiting instead of what the store saw. */
    volatile OthersWaiting othersWaitingOverride;
    /** When set, longer lease times are refused before any store call, as Redis with its restart guard does. */
    volatile Duration maxLeaseTime;

    /** When set, each release counts down {@code releaseEntered} and waits for this latch before its store call. */
    volatile CountDownLatch releaseGate;
    final CountDownLatch releaseEntered = new CountDownLatch(1);
    /** Set by close: a release then fails as a closed client's (Jedis, HikariCP) does; the mem backend frees anyway. */
    private volatile boolean closed;

    CountingBackend(LockBackend delegate) {
        super(delegate);
    }

    @Override
    public Terms terms() {
        return new Terms(model, null, delegate.terms().maxNameLength());
    }

    @Override
    public Grant acquire(String name, Duration leaseTime, Wait wait) throws InterruptedException {
        acquireCalls.incrementAndGet();
        acquireStarts.add(System.nanoTime());
        checkLease(leaseTime);
        return countedInFlight(acquiresInFlight, maxAcquiresInFlight, () -> {
            Grant grant = delegate.acquire(name, leaseTime, wait);
            if (grant != null && fenceOverride > 0) {
                grant = new Grant(grant.name(), grant.ownerToken(), fenceOverride, grant.handle(),
                        grant.issuedAtNanos(), grant.othersWaiting());
            }
            if (grant != null && dropGrantsBeforeHandingThemOver) {
                delegate.release(grant); // the store no longer has it, as after an operator's delete
                return lostFirst(grant, "deleted right after the grant");
            }
            return loseGrantsBeforeHandingThemOver ? lostFirst(grant, "node vanished right after the grant") : grant;
        });
    }

    @Override
    public boolean release(Grant grant) {
        releaseCalls.incrementAndGet();
        CountDownLatch gate = releaseGate;
        if (gate != null) {
            releaseEntered.countDown();
            awaitUninterruptibly(gate);
        }
        if (closed) {
            throw new IllegalStateException("connection pool closed");
        }
        return delegate.release(grant);
    }

    @Override
    public Grant handOver(Grant from, Duration leaseTime, Thread receiver) {
        handOverCalls.incrementAndGet();
        checkLease(leaseTime);
        Grant grant = ((HandOvers) delegate).handOver(from, leaseTime, receiver);
        OthersWaiting others = othersWaitingOverride;
        return grant == null || others == null ? grant : new Grant(grant.name(), grant.ownerToken(),
                grant.fencingToken(), grant.handle(), grant.issuedAtNanos(), others);
    }

    @Override
    public void close() {
        closed = true;
        super.close();
    }

    /** This backend, counted as before, without its hand-overs: the core then frees a released lock in the store. */
    LockBackend withoutHandOvers() {
        CountingBackend counted = this;
        return new LockBackend() {
            @Override
            public Terms terms() {
                return counted.terms();
            }

            @Override
            public void attach(LeaseEvents coreEvents) {
                counted.attach(coreEvents);
            }

            @Override
            public Grant acquire(String name, Duration leaseTime, Wait wait) throws InterruptedException {
                return counted.acquire(name, leaseTime, wait);
            }

            @Override
            public boolean release(Grant grant) {
                return counted.release(grant);
            }

            @Override
            public Set<Grant> renew(List<Renewal> list) {
                return counted.renew(list);
            }

            @Override
            public void close() {
                counted.close();
            }
        };
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void checkLease(Duration leaseTime) {
        Duration max = maxLeaseTime;
        if (max != null && leaseTime.compareTo(max) > 0) {
            throw new IllegalArgumentException("lease time " + leaseTime + " is longer than maxLeaseTime " + max);
        }
    }

    @Override
    public Set<Grant> renew(List<Renewal> list) {
        renewCalls.incrementAndGet();
        renewals.addAndGet(list.size());
        if (storeDown.get()) {
            throw new StoreUnavailableException("store switched off by the test");
        }
        return delegate.renew(list);
    }
}
