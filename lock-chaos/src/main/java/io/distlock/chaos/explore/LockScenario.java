package io.distlock.chaos.explore;

import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The lock scenario: client A's thread A1 takes the lock while A's thread A2 and client B wait; A1 extends, holds
 * past a renewal, writes and releases (a hand-over to A2 in one store operation, or B); A2 writes and calls
 * {@code releaseAfter}; B takes it, writes, and while it holds, A's thread A3 waits and A is closed under it; then B
 * is closed while holding. B waits through an outage (a failed call is tried again with the wait left).
 */
final class LockScenario {

    private LockScenario() {
    }

    static void run(RunContext ctx) throws Exception {
        Duration lease = ctx.store.lease();
        LockOptions options = LockOptions.defaults().withLeaseTime(lease);
        Optional<LockStore> a = ctx.open("A");
        Optional<LockStore> b = ctx.open("B");
        if (a.isEmpty() || b.isEmpty()) {
            return;
        }
        DistributedLock la = a.get().lock(ctx.name, options);
        DistributedLock lb = b.get().lock(ctx.name, options);
        Optional<Lease> a1 = ctx.acquire("A1", lease.multipliedBy(2), () -> la.tryAcquire(lease.multipliedBy(2)));
        a1.ifPresent(l -> ctx.write("A1", l));
        Future<?> a2 = ctx.background(() -> {
            Optional<Lease> l = ctx.acquire("A2", lease.multipliedBy(3), () -> la.tryAcquire(lease.multipliedBy(3)));
            l.ifPresent(x -> {
                ctx.write("A2", x);
                ctx.releaseAfter("A2", x, Duration.ofMillis(300));
            });
            return null;
        });
        List<RunContext.Held> bHolds = new ArrayList<>();
        Future<?> bDone = ctx.background(() -> {
            // B waits through an outage: still waiting when a restarted server comes back (restart guard)
            Optional<Lease> l = ctx.acquire("B", lease.multipliedBy(5),
                    RunContext.throughOutages(lease.multipliedBy(5), lb::tryAcquire));
            l.ifPresent(x -> {
                ctx.write("B", x);
                bHolds.add(new RunContext.Held("B", x));
            });
            return null;
        });
        RunContext.work(Duration.ofMillis(200)); // the waiters get in line
        if (a1.isPresent()) {
            ctx.extend("A1", a1.get(), lease);
            ctx.doing("A1 hold (renewals)");
            RunContext.work(lease.dividedBy(2)); // A1's work, long enough for a renewal
            ctx.write("A1", a1.get());
            ctx.release("A1", a1.get(), "release (hand-over)");
        }
        a2.get(lease.multipliedBy(3).plus(ctx.opBound()).toMillis() + 2000, TimeUnit.MILLISECONDS);
        bDone.get(lease.multipliedBy(5).plus(ctx.opBound()).toMillis() + 2000, TimeUnit.MILLISECONDS);
        // while B holds, A3 waits on A and A is closed under it
        Future<?> a3 = ctx.background(() -> {
            ctx.acquire("A3", lease.multipliedBy(2), () -> la.tryAcquire(lease.multipliedBy(2)))
                    .ifPresent(x -> ctx.event("A3", "REL_OK", x.fencingToken())); // closed with A below
            return null;
        });
        RunContext.work(Duration.ofMillis(200)); // A3 gets in line
        ctx.close("A", a.get(), List.of());
        a3.get(lease.multipliedBy(2).plus(ctx.opBound()).toMillis() + 2000, TimeUnit.MILLISECONDS);
        if (!bHolds.isEmpty()) {
            ctx.write("B", bHolds.get(0).lease());
        }
        ctx.close("B", b.get(), bHolds);
    }
}
