package io.distlock.chaos.explore;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.DistributedSemaphore;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The semaphore scenario, 2 permits: A's thread A1 and client B hold; A's thread A2 and client C wait; A1 extends,
 * holds past a renewal and releases (to A2 in one store operation, or to C); B calls {@code releaseAfter}; A is
 * closed while A2 holds, C is closed while it holds. The waiters A2 and C wait through an outage (a failed call is
 * tried again with the wait left).
 */
final class SemaphoreScenario {

    private SemaphoreScenario() {
    }

    static void run(RunContext ctx) throws Exception {
        Duration lease = ctx.store.lease();
        LockOptions options = LockOptions.defaults().withLeaseTime(lease);
        Optional<LockStore> a = ctx.open("A");
        Optional<LockStore> b = ctx.open("B");
        Optional<LockStore> c = ctx.open("C");
        if (a.isEmpty() || b.isEmpty() || c.isEmpty()) {
            return;
        }
        DistributedSemaphore sa = a.get().semaphore(ctx.name, 2, options);
        DistributedSemaphore sb = b.get().semaphore(ctx.name, 2, options);
        DistributedSemaphore sc = c.get().semaphore(ctx.name, 2, options);
        Duration wait = lease.multipliedBy(2);
        Optional<Lease> a1 = ctx.acquire("A1", wait, () -> sa.tryAcquire(wait));
        Optional<Lease> b1 = ctx.acquire("B", wait, () -> sb.tryAcquire(wait));
        Duration longWait = lease.multipliedBy(4);
        // the waiters wait through an outage: still waiting when a restarted server comes back (restart guard)
        Future<Optional<Lease>> a2 = ctx.background(() -> ctx.acquire("A2", longWait,
                RunContext.throughOutages(longWait, sa::tryAcquire)));
        Future<Optional<Lease>> c1 = ctx.background(() -> ctx.acquire("C", longWait,
                RunContext.throughOutages(longWait, sc::tryAcquire)));
        RunContext.work(Duration.ofMillis(200)); // the waiters get in line
        if (a1.isPresent()) {
            ctx.extend("A1", a1.get(), lease);
            ctx.doing("A1 hold (renewals)");
            RunContext.work(lease.dividedBy(2)); // A1's work, long enough for a renewal
            ctx.release("A1", a1.get(), "release (hand-over)");
        }
        b1.ifPresent(l -> ctx.releaseAfter("B", l, Duration.ofMillis(300)));
        long bound = longWait.plus(ctx.opBound()).toMillis() + 2000;
        Optional<Lease> a2Lease = a2.get(bound, TimeUnit.MILLISECONDS);
        Optional<Lease> cLease = c1.get(bound, TimeUnit.MILLISECONDS);
        ctx.close("A", a.get(), a2Lease.map(l -> List.of(new RunContext.Held("A2", l))).orElse(List.of()));
        ctx.close("B", b.get(), List.of());
        ctx.close("C", c.get(), cLease.map(l -> List.of(new RunContext.Held("C", l))).orElse(List.of()));
    }
}
