package io.distlock.chaos.explore;

import io.distlock.Leadership;
import io.distlock.LeadershipListener;
import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The leadership scenario: A campaigns, then B; whoever leads writes to the fenced register with its term; the
 * first leader steps down, the next one's client is closed while it leads. A term is recorded as a hold (ACQ_OK at
 * {@code elected}, REL_OK at a step-down, LOST_SIGNAL and REL_LOST at a loss), so the lock's checker counts two
 * leaders at once.
 */
final class LeadershipScenario {

    private LeadershipScenario() {
    }

    /** One campaigner's listener: records its terms and writes with each. */
    private static final class Campaigner implements LeadershipListener {
        private final RunContext ctx;
        private final String worker;
        private final AtomicBoolean closing = new AtomicBoolean();
        private final CountDownLatch elected = new CountDownLatch(1);
        private volatile Lease term;

        Campaigner(RunContext ctx, String worker) {
            this.ctx = ctx;
            this.worker = worker;
        }

        @Override
        public void elected(Lease lease) {
            term = lease;
            ctx.event(worker, "ACQ_OK", lease.fencingToken());
            ctx.write(worker, lease);
            elected.countDown();
        }

        @Override
        public void revoked(Lease lease) {
            term = null;
            if (closing.get()) {
                ctx.event(worker, "REL_OK", lease.fencingToken());
            } else {
                ctx.event(worker, "LOST_SIGNAL", lease.fencingToken());
                ctx.event(worker, "REL_LOST", lease.fencingToken());
            }
        }

        boolean awaitElected(Duration within) throws InterruptedException {
            return elected.await(within.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    static void run(RunContext ctx) throws Exception {
        Duration lease = ctx.store.lease();
        LockOptions options = LockOptions.defaults().withLeaseTime(lease);
        Optional<LockStore> a = ctx.open("A");
        Optional<LockStore> b = ctx.open("B");
        if (a.isEmpty() || b.isEmpty()) {
            return;
        }
        Campaigner ca = new Campaigner(ctx, "A");
        Campaigner cb = new Campaigner(ctx, "B");
        ctx.doing("A campaign");
        Optional<Leadership> la = ctx.bounded("A campaign", ctx.opBound(),
                () -> a.get().leadership(ctx.name, options, ca));
        ca.awaitElected(lease.multipliedBy(2));
        ctx.doing("B campaign");
        Optional<Leadership> lb = ctx.bounded("B campaign", ctx.opBound(),
                () -> b.get().leadership(ctx.name, options, cb));
        ctx.doing("term (renewals)");
        RunContext.work(lease.dividedBy(2)); // the leader's term, long enough for a renewal
        Lease t = ca.term;
        if (t != null) {
            ctx.write("A", t);
        }
        ctx.doing("A steps down");
        ca.closing.set(true);
        la.ifPresent(l -> ctx.bounded("A steps down", ctx.opBound(), () -> {
            l.close();
            return Boolean.TRUE;
        }));
        cb.awaitElected(lease.multipliedBy(3));
        Lease tb = cb.term;
        if (tb != null) {
            ctx.write("B", tb);
        }
        cb.closing.set(true);
        ctx.close("B", b.get(), List.of()); // B's term ends through its listener
        ctx.close("A", a.get(), List.of());

    }
}
