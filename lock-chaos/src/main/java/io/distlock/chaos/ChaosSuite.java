package io.distlock.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Runs scenarios against stores and collects one {@link ChaosResult} each: a fresh target and fresh workers per run,
 * so no fault leaks into the next. A run that cannot start or breaks down is reported as such, not dropped.
 */
final class ChaosSuite {

    /**
     * A store the suite can start on demand, with the scenarios documented as unsafe for it and, if not empty, the
     * only scenarios worth running on it (a Redis persistence mode only changes what a crash does).
     */
    record StoreKind(String name, Supplier<StoreTarget> factory, List<Scenario> unsafeByDesign, Set<Scenario> only) {

        boolean runs(Scenario scenario) {
            return only.isEmpty() || only.contains(scenario);
        }
    }

    private final int workers;
    private final int faults;
    private final java.time.Duration settle;

    ChaosSuite(int workers, int faults, java.time.Duration settle) {
        this.workers = workers;
        this.faults = faults;
        this.settle = settle;
    }

    List<ChaosResult> run(List<StoreKind> stores, List<Scenario> scenarios, java.io.PrintWriter progress) {
        List<ChaosResult> results = new ArrayList<>();
        for (StoreKind kind : stores) {
            for (Scenario scenario : scenarios) {
                if (!kind.runs(scenario)) {
                    continue;
                }
                progress.printf("chaos: %-36s %-34s ... ", kind.name(), scenario.title());
                progress.flush();
                long started = System.nanoTime();
                ChaosResult result = runOne(kind, scenario);
                progress.println(result == null ? "not applicable" : ChaosReport.verdict(result) + " in "
                        + java.time.Duration.ofNanos(System.nanoTime() - started).toSeconds() + " s ("
                        + result.faults() + " faults, " + result.faultsMidHold() + " mid-hold, " + result.acquiredOk()
                        + " acquisitions, " + result.undetectedOverlaps() + " silent overlaps, "
                        + result.detectedOverlaps() + " told overlaps, "
                        + result.staleWritesAccepted() + " stale writes accepted, " + result.tokensReissued()
                        + " tokens re-issued" + (result.note().startsWith("run failed") ? "; " + result.note() : "")
                        + ")");
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
                Scenario.Injection injection = scenario.inject(run, faults);
                run.runFor(settle);
                List<Event> events = run.stopAndCollect();
                String note = String.join("; ", java.util.stream.Stream.of(
                        unsafe ? "unsafe by design for this store and fault (see README)" : "", target.note())
                        .filter(n -> !n.isEmpty()).toList());
                return ChaosChecker.check(target.store(), scenario.title(), events, run.register(),
                        injection.faults(), injection.startedAtNanos(), injection.healedAtNanos(), unsafe, note);
            }
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            StringBuilder why = new StringBuilder(e.toString());
            for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
                why.append("; caused by ").append(c);
            }
            return ChaosResult.failed(kind.name(), scenario.title(), why.toString());
        }
    }
}
