package io.distlock.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Runs scenarios against stores and collects one {@link ChaosResult} each: a fresh target and fresh workers per run,
 * so no fault leaks into the next. A run that cannot start or breaks down is reported as such, not dropped.
 */
final class ChaosSuite {

    /** A store the suite can start on demand, with the scenarios documented as unsafe for it. */
    record StoreKind(String name, Supplier<StoreTarget> factory, List<Scenario> unsafeByDesign) {
    }

    private final int workers;
    private final int rounds;
    private final java.time.Duration settle;

    ChaosSuite(int workers, int rounds, java.time.Duration settle) {
        this.workers = workers;
        this.rounds = rounds;
        this.settle = settle;
    }

    List<ChaosResult> run(List<StoreKind> stores, List<Scenario> scenarios, java.io.PrintStream progress) {
        List<ChaosResult> results = new ArrayList<>();
        for (StoreKind kind : stores) {
            for (Scenario scenario : scenarios) {
                progress.printf("chaos: %-28s %-26s ... ", kind.name(), scenario.title());
                ChaosResult result = runOne(kind, scenario);
                progress.println(result == null ? "not applicable"
                        : (result.meetsBars() ? "ok" : "BARS MISSED") + " (" + result.acquiredOk() + " acquisitions, "
                                + result.undetectedOverlaps() + " silent overlaps, " + result.staleWritesAccepted()
                                + " stale writes accepted)");
                if (result != null) {
                    results.add(result);
                }
            }
        }
        return results;
    }

    /** One scenario on a fresh target; null if it does not apply. */
    ChaosResult runOne(StoreKind kind, Scenario scenario) {
        try (StoreTarget target = kind.factory().get()) {
            String why = scenario.notApplicable(target);
            if (why != null) {
                return null;
            }
            boolean unsafe = kind.unsafeByDesign().contains(scenario);
            try (ChaosRun run = new ChaosRun(target, scenario.needsProxy())) {
                run.startWorkers(workers);
                Scenario.Injection injection = scenario.inject(run, rounds);
                run.runFor(settle);
                List<Event> events = run.stopAndCollect();
                String note = unsafe ? "unsafe by design for this store (see README)" : "";
                if (target instanceof ZooKeeperEnsembleTarget ensemble && scenario == Scenario.SERVER_RESTART) {
                    note = "crashed a follower, then the leader (last: " + ensemble.lastCrashed() + ")";
                }
                return ChaosChecker.check(target.store(), scenario.title(), events, run.register(),
                        injection.faults(), injection.healedAtNanos(), unsafe, note);
            }
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return new ChaosResult(kind.name(), scenario.title(), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, false,
                    "run failed: " + e);
        }
    }
}
