package io.distlock.chaos;

import io.distlock.tck.check.FencedRegister;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Runs the scenarios of the suite with a workload other than the lock's (leadership, semaphore, SQL fence): the same
 * targets, faults and settling time as {@link ChaosSuite}, with the workload's worker program and checker. A run
 * that cannot start or breaks down is reported as such, not dropped.
 */
final class WorkloadSuite {

    private final Workload workload;
    private final int workers;
    private final int faults;
    private final Duration settle;

    WorkloadSuite(Workload workload, int workers, int faults, Duration settle) {
        if (workload.isLock()) {
            throw new IllegalArgumentException("the lock workloads run in ChaosSuite");
        }
        this.workload = workload;
        this.workers = workers;
        this.faults = faults;
        this.settle = settle;
    }

    List<WorkloadResult> run(List<ChaosSuite.StoreKind> stores, List<Scenario> scenarios, PrintWriter progress) {
        List<WorkloadResult> results = new ArrayList<>();
        for (ChaosSuite.StoreKind kind : stores) {
            for (Scenario scenario : ChaosSuite.applicable(kind, scenarios, progress)) {
                progress.printf("chaos %s: %-30s %-34s ... ", workload.cliName(), kind.name(), scenario.title());
                progress.flush();
                long started = System.nanoTime();
                WorkloadResult result = runOne(kind, scenario);
                if (result == null) {
                    progress.println("not applicable");
                    continue;
                }
                progress.println(result.verdict() + " in " + Duration.ofNanos(System.nanoTime() - started).toSeconds()
                        + " s (" + result.summary() + ")");
                results.add(result);
            }
        }
        return results;
    }

    /** One scenario on a fresh target; null if it does not apply. */
    WorkloadResult runOne(ChaosSuite.StoreKind kind, Scenario scenario) {
        try (StoreTarget target = kind.factory().get()) {
            if (scenario.notApplicable(target) != null) {
                return null;
            }
            boolean unsafe = kind.unsafeByDesign().contains(scenario);
            String note = String.join("; ", Stream.of(unsafe ? "unsafe by design for this store and fault (see "
                    + "README)" : "", target.note()).filter(n -> !n.isEmpty()).toList());
            return switch (workload) {
                case LEADERSHIP -> leadership(target, scenario, unsafe, note);
                case SEMAPHORE -> semaphore(target, scenario, unsafe, note);
                default -> sqlFence(target, scenario, unsafe, note);
            };
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            StringBuilder why = new StringBuilder(e.toString());
            for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
                why.append("; caused by ").append(c);
            }
            return switch (workload) {
                case LEADERSHIP -> LeadershipResult.failed(kind.name(), scenario.title(), why.toString());
                case SEMAPHORE -> SemaphoreResult.failed(kind.name(), scenario.title(), Workload.SEMAPHORE_LIMIT,
                        why.toString());
                default -> SqlFenceResult.failed(kind.name(), workload.database().name().toLowerCase(
                        java.util.Locale.ROOT), scenario.title(), why.toString());
            };
        }
    }

    /** What the workers did: their histories, and the fault injection's moments. */
    private record Outcome(List<Event> events, Scenario.Injection injection, FencedRegister.State register) {
    }

    private Outcome drive(StoreTarget target, Scenario scenario, WorkerProgram program) throws Exception {
        try (ChaosRun run = new ChaosRun(target, scenario.needsProxy(), WorkerShape.forLease(target.lease()),
                program)) {
            run.startWorkers(workers);
            Scenario.Injection injection = scenario.inject(run, faults);
            run.runFor(settle);
            List<Event> events = run.stopAndCollect();
            return new Outcome(events, injection, run.register());
        }
    }

    private WorkloadResult leadership(StoreTarget target, Scenario scenario, boolean unsafe, String note)
            throws Exception {
        Outcome o = drive(target, scenario, new WorkerProgram(LeaderWorker.class.getName(), List.of()));
        return LeadershipChecker.check(target.store(), scenario.title(), o.events(), o.register(),
                o.injection().faults(), o.injection().startedAtNanos(), o.injection().healedAtNanos(), unsafe, note);
    }

    private WorkloadResult semaphore(StoreTarget target, Scenario scenario, boolean unsafe, String note)
            throws Exception {
        Outcome o = drive(target, scenario, new WorkerProgram(SemaphoreWorker.class.getName(),
                List.of(Integer.toString(Workload.SEMAPHORE_LIMIT))));
        return SemaphoreChecker.check(target.store(), scenario.title(), Workload.SEMAPHORE_LIMIT, o.events(),
                o.injection().faults(), o.injection().startedAtNanos(), o.injection().healedAtNanos(), unsafe, note);
    }

    private WorkloadResult sqlFence(StoreTarget target, Scenario scenario, boolean unsafe, String note)
            throws Exception {
        try (FenceDatabase db = new FenceDatabase(workload.database(), target)) {
            Outcome o = drive(target, scenario, new WorkerProgram(SqlFenceWorker.class.getName(), db.workerArgs()));
            return SqlFenceChecker.check(target.store(), db.label(), scenario.title(), o.events(), db.counter(),
                    o.injection().faults(), o.injection().startedAtNanos(), o.injection().healedAtNanos(), unsafe,
                    note);
        }
    }
}
