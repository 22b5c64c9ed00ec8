package io.distlock.bench;

import io.distlock.bench.core.Contender;
import io.distlock.bench.core.Role;
import io.distlock.bench.core.RoundTripProxy;
import io.distlock.bench.core.Scenario;
import io.distlock.bench.core.SemaphoreContender;
import io.distlock.bench.core.StoreBench;
import io.distlock.bench.result.CostResult;
import io.distlock.bench.result.HeldLeasesResult;
import io.distlock.bench.result.NamesOnceResult;
import io.distlock.bench.result.OpCost;
import io.distlock.bench.result.StoreResult;
import io.distlock.bench.result.WaitersPoint;
import io.distlock.bench.scenario.CostProbe;
import io.distlock.bench.scenario.HeldLeases;
import io.distlock.bench.scenario.NamesOnce;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The measurements of issue #33 on one store, each with fresh contenders connected through a counting proxy:
 * counted cost per operation (pair, hand-off, contended, semaphore pair; several runs for the spread), the
 * side-by-side scenarios at a real round-trip time (a proxy that delays each way), and how cost grows with waiters
 * on one name, with names used once, and with held leases.
 */
final class ScaleRunner {

    /** Contenders drawn in the waiters curve: distlock and the other libraries that wait (no raw, no semaphores). */
    private static final Set<Role> WAITER_ROLES = Set.of(Role.DISTLOCK, Role.REDISSON, Role.CURATOR,
            Role.CURATOR_FENCED, Role.SPRING_INTEGRATION);
    /** Contenders whose leftovers of names used once are counted. */
    private static final Set<Role> NAMES_ROLES = Set.of(Role.DISTLOCK, Role.REDISSON, Role.CURATOR, Role.SHEDLOCK,
            Role.RAW);

    /** Runs the classic scenarios for a list of contenders into a result (BenchRunner's interleaved runner). */
    @FunctionalInterface
    interface ScenarioRunner {
        void run(String label, List<Scenario> scenarios, List<Contender> contenders, String runId, StoreResult into);
    }

    private final ScaleConfig scale;
    private final Duration heldLeaseTime;
    private final PrintStream log;

    ScaleRunner(ScaleConfig scale, Duration heldLeaseTime, PrintStream log) {
        this.scale = scale;
        this.heldLeaseTime = heldLeaseTime;
        this.log = log;
    }

    void run(StoreBench store, String runId, StoreResult result, List<Scenario> rttScenarios, ScenarioRunner runner) {
        phase(store, result, "counted costs", () -> costs(store, runId, Duration.ZERO, result.costs(), result));
        for (Duration delay : scale.costDelays()) {
            List<CostResult> at = new ArrayList<>();
            result.costsAtRoundTripTime().put(rttLabel(delay), at);
            phase(store, result, "counted costs at round-trip time " + rttLabel(delay),
                    () -> costs(store, runId + "c" + delay.toNanos() / 1000, delay, at, result));
        }
        for (Duration delay : scale.delays()) {
            phase(store, result, "at round-trip time " + rttLabel(delay), () -> atRtt(store, runId, result, delay,
                    rttScenarios, runner));
        }
        phase(store, result, "waiters curve", () -> waiters(store, runId, result));
        phase(store, result, "names used once", () -> namesOnce(store, runId, result));
        phase(store, result, "held-leases curve", () -> heldCurve(store, runId, result));
    }

    /** The round trip a delay each way adds, as the report labels it. */
    static String rttLabel(Duration delayEachWay) {
        return String.format(Locale.ROOT, "%s ms", trim(delayEachWay.toNanos() * 2 / 1e6));
    }

    private static String trim(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    @FunctionalInterface
    private interface Phase {
        void run() throws Exception;
    }

    private void phase(StoreBench store, StoreResult result, String what, Phase phase) {
        try {
            phase.run();
        } catch (Exception e) {
            result.notes().add(what + " not measured: " + BenchRunner.describe(e));
            log.printf("  %-10s %s FAILED: %s%n", store.name(), what, BenchRunner.describe(e));
        }
    }

    /** The counted-cost loops of every contender through a proxy adding {@code delay} each way, into {@code into}. */
    private void costs(StoreBench store, String runId, Duration delay, List<CostResult> into, StoreResult result)
            throws Exception {
        if (scale.costRuns() <= 0) {
            return;
        }
        String at = delay.isZero() ? "" : " @" + rttLabel(delay);
        Duration settle = CostProbe.handoffSettle(delay);
        try (RoundTripProxy proxy = new RoundTripProxy(store.server(), delay, store.protocol())) {
            List<Contender> contenders = store.contenders(proxy.address());
            CostProbe probe = new CostProbe(store, proxy);
            Map<String, CostResult> byKey = new LinkedHashMap<>();
            List<String> loops = List.of(CostProbe.PAIR, CostProbe.HANDOFF, CostProbe.CONTENDED,
                    CostProbe.SEMAPHORE_PAIR);
            for (String loop : loops) {
                for (Contender c : contenders) {
                    if (CostProbe.appliesTo(loop, c)) {
                        CostResult r = new CostResult(c.name(), c.role(), loop);
                        byKey.put(c.name() + "\u0000" + loop, r);
                        into.add(r);
                    }
                }
            }
            try {
                // round 0 warms up every contender in every loop and is not kept
                for (int round = 0; round <= scale.costRuns(); round++) {
                    for (String loop : loops) {
                        for (int i = 0; i < contenders.size(); i++) {
                            Contender c = contenders.get(i);
                            CostResult r = byKey.get(c.name() + "\u0000" + loop);
                            if (r == null || r.failure() != null) {
                                continue;
                            }
                            try {
                                Duration d = round == 0 ? scale.costDuration().dividedBy(2) : scale.costDuration();
                                OpCost cost = probe.measure(c, loop, "bench:" + runId + ":k" + i + ":", d, settle);
                                if (round > 0) {
                                    r.add(cost);
                                    log.printf(Locale.ROOT, "  %-10s cost%s %d/%d %-15s %-38s %5.2f rt %5.2f push "
                                                    + "%5.2f req %6.0f/%6.0f B  srv %6.1f us  cli %6.1f us %7.0f B "
                                                    + "%7.0f op/s%n",
                                            store.name(), at, round, scale.costRuns(), loop, c.name(),
                                            cost.roundTrips(), cost.pushes(), cost.requests(), cost.bytesUp(),
                                            cost.bytesDown(), cost.serverCpuMicros(), cost.clientCpuMicros(),
                                            cost.clientBytes(), cost.opsPerSecond());
                                }
                            } catch (Exception e) {
                                r.fail(BenchRunner.describe(e));
                                log.printf("  %-10s cost%s %-15s %-38s FAILED: %s%n", store.name(), at, loop, c.name(),
                                        BenchRunner.describe(e));
                            }
                        }
                    }
                }
            } finally {
                closeAll(contenders, result);
            }
        }
    }

    private void atRtt(StoreBench store, String runId, StoreResult result, Duration delay, List<Scenario> scenarios,
                       ScenarioRunner runner) throws Exception {
        String label = rttLabel(delay);
        StoreResult at = new StoreResult(store.name(), store.server() + " via a proxy adding " + label
                + " per round trip");
        result.atRoundTripTime().put(label, at);
        try (RoundTripProxy proxy = new RoundTripProxy(store.server(), delay, store.protocol())) {
            List<Contender> contenders = store.contenders(proxy.address());
            try {
                runner.run(store.name() + "@" + label, scenarios, contenders, runId + "r" + delay.toNanos() / 1000,
                        at);
            } finally {
                closeAll(contenders, at);
            }
        }
    }

    private void waiters(StoreBench store, String runId, StoreResult result) throws Exception {
        if (scale.waiters().isEmpty()) {
            return;
        }
        try (RoundTripProxy proxy = new RoundTripProxy(store.server(), Duration.ZERO, store.protocol())) {
            CostProbe probe = new CostProbe(store, proxy);
            List<Contender> contenders = store.contenders(proxy.address());
            try {
                for (int i = 0; i < contenders.size(); i++) {
                    Contender c = contenders.get(i);
                    if (!WAITER_ROLES.contains(c.role()) || SemaphoreContender.is(c)) {
                        continue;
                    }
                    String name = "bench:" + runId + ":w" + i;
                    boolean failed = false;
                    for (int clients : scale.waiters()) {
                        if (failed) {
                            break;
                        }
                        if (clients > store.maxWaiters()) {
                            String note = String.format(Locale.ROOT, "waiters curve stops at %d clients on %s "
                                    + "(each waiter is its own client with its own connections, and the shared "
                                    + "server's connection slots are needed by its other users)", store.maxWaiters(),
                                    store.name());
                            if (!result.notes().contains(note)) {
                                result.notes().add(note);
                            }
                            break;
                        }
                        try {
                            probe.waiters(c, clients, name, scale.waitersDuration().dividedBy(4), scale.waitersHold());
                            CostProbe.WaitersRun run = probe.waiters(c, clients, name, scale.waitersDuration(),
                                    scale.waitersHold());
                            OpCost cost = run.cost();
                            result.waiters().add(new WaitersPoint(c.name(), c.role(), clients, cost, null,
                                    run.fewest(), run.most()));
                            log.printf(Locale.ROOT, "  %-10s waiters %3d  %-38s %6.2f rt %6.2f push %6.2f req "
                                            + "per acquisition, %7.0f acq/s, %d-%d per client%n", store.name(),
                                    clients, c.name(), cost.roundTrips(), cost.pushes(), cost.requests(),
                                    cost.opsPerSecond(), run.fewest(), run.most());
                        } catch (Exception e) {
                            failed = true;
                            result.waiters().add(WaitersPoint.failed(c.name(), c.role(), clients,
                                    BenchRunner.describe(e)));
                            log.printf("  %-10s waiters %3d %-38s FAILED: %s%n", store.name(), clients, c.name(),
                                    BenchRunner.describe(e));
                        }
                    }
                    // each point's clients stay open until the contender closes: close it before the next one
                    c.close();
                }
            } finally {
                closeAll(contenders, result);
            }
        }
    }

    private void namesOnce(StoreBench store, String runId, StoreResult result) throws Exception {
        for (int names : scale.namesOnce()) {
            namesOnce(store, runId + "s" + names, names, result);
        }
    }

    /** Names used once at one size: every contender locks {@code names} names, then what they left is counted. */
    private void namesOnce(StoreBench store, String runId, int names, StoreResult result) throws Exception {
        List<Contender> contenders = store.contenders(store.server());
        List<String> markers = new ArrayList<>();
        List<NamesOnceResult> rows = new ArrayList<>();
        long lastRelease = 0;
        try {
            for (int i = 0; i < contenders.size(); i++) {
                Contender c = contenders.get(i);
                if (!NAMES_ROLES.contains(c.role()) || SemaphoreContender.is(c)) {
                    continue;
                }
                String marker = runId + "n" + i + "x";
                try {
                    double seconds = NamesOnce.run(c, "bench:" + marker + ":", names);
                    lastRelease = System.nanoTime();
                    OptionalLong left = store.leftover(marker);
                    rows.add(new NamesOnceResult(c.name(), c.role(), names, seconds,
                            left.orElse(-1), -1, Duration.ZERO, null));
                    markers.add(marker);
                    log.printf(Locale.ROOT, "  %-10s names once %,d  %-38s %.1f s, %s left after release%n",
                            store.name(), names, c.name(), seconds,
                            left.isPresent() ? String.format(Locale.ROOT, "%,d", left.getAsLong()) : "?");
                } catch (Exception e) {
                    rows.add(NamesOnceResult.failed(c.name(), c.role(), names, BenchRunner.describe(e)));
                    markers.add(marker);
                }
            }
            // the clients stay open meanwhile, as a service's would: a store that reclaims from the client side
            // (the SQL stores' row sweep runs in every process that granted) must get the chance to
            Duration wait = ScaleConfig.DEFAULT_LEASE.plus(scale.namesGrace());
            long waitLeft = wait.toNanos() - (System.nanoTime() - lastRelease);
            if (waitLeft > 0) {
                Thread.sleep(waitLeft / 1_000_000);
            }
            for (int i = 0; i < rows.size(); i++) {
                NamesOnceResult row = rows.get(i);
                if (row.failure() == null) {
                    OptionalLong left = store.leftover(markers.get(i));
                    row = row.withAfterGrace(left.orElse(-1), wait);
                    log.printf(Locale.ROOT, "  %-10s names once %,d  %-38s %s left after %s%n", store.name(),
                            row.names(), row.contender(),
                            left.isPresent() ? String.format(Locale.ROOT, "%,d", left.getAsLong()) : "?", wait);
                }
                result.namesOnce().add(row);
            }
        } finally {
            closeAll(contenders, result);
        }
    }

    private void heldCurve(StoreBench store, String runId, StoreResult result) throws Exception {
        if (scale.heldCurve().isEmpty()) {
            return;
        }
        try (RoundTripProxy proxy = new RoundTripProxy(store.server(), Duration.ZERO, store.protocol())) {
            List<Contender> contenders = store.contenders(proxy.address());
            try {
                for (int i = 0; i < contenders.size(); i++) {
                    Contender c = contenders.get(i);
                    if (!c.canHoldWithRenewal() || SemaphoreContender.is(c)) {
                        continue;
                    }
                    for (int leases : scale.heldCurve()) {
                        HeldLeasesResult held;
                        Duration leaseTime = heldLeaseTime;
                        try {
                            held = new HeldLeases(leases, leaseTime)
                                    .run(c, proxy, "bench:" + runId + ":h" + i + "-" + leases + ":");
                        } catch (Exception e) {
                            held = HeldLeasesResult.failed(c.name(), leases, leaseTime, BenchRunner.describe(e));
                        }
                        result.heldCurve().add(held);
                        log.printf(Locale.ROOT, "  %-10s held %,7d  %-38s %.1f round trips/interval, %d B/lease%s%n",
                                store.name(), leases, c.name(), held.roundTripsPerInterval(), held.heapBytesPerLease(),
                                held.failure() == null ? "" : "  (" + held.failure() + ")");
                    }
                }
            } finally {
                closeAll(contenders, result);
            }
        }
    }

    private static void closeAll(List<Contender> contenders, StoreResult result) {
        for (Contender c : contenders) {
            try {
                c.close();
            } catch (Exception e) {
                result.notes().add("Closing " + c.name() + " failed: " + BenchRunner.describe(e));
            }
        }
    }
}
