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

    /** The system property naming a directory where each run's history is written (none if unset). */
    static final String HISTORIES = "distlock.chaos.histories";

    private final int workers;
    private final int faults;
    private final java.time.Duration settle;

    private final int threadsPerWorker;

    ChaosSuite(int workers, int faults, java.time.Duration settle) {
        this(workers, faults, settle, 1);
    }

    /** A suite whose worker JVMs each run {@code threadsPerWorker} lock threads over one store. */
    ChaosSuite(int workers, int faults, java.time.Duration settle, int threadsPerWorker) {
        this.workers = workers;
        this.faults = faults;
        this.settle = settle;
        this.threadsPerWorker = threadsPerWorker;
    }

    List<ChaosResult> run(List<StoreKind> stores, List<Scenario> scenarios, java.io.PrintWriter progress) {
        List<ChaosResult> results = new ArrayList<>();
        for (StoreKind kind : stores) {
            List<Scenario> applicable = applicable(kind, scenarios, progress);
            for (Scenario scenario : applicable) {
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

    /**
     * The scenarios of {@code asked} that apply to {@code kind}, found on one target started for the purpose (so a
     * scenario that does not apply costs no server start of its own); all of them if the target cannot start (each
     * run then reports the failure).
     */
    static List<Scenario> applicable(StoreKind kind, List<Scenario> asked, java.io.PrintWriter progress) {
        List<Scenario> wanted = asked.stream().filter(kind::runs).toList();
        try (StoreTarget probe = kind.factory().get()) {
            List<Scenario> applicable = new ArrayList<>();
            for (Scenario s : wanted) {
                String why = s.notApplicable(probe);
                if (why == null) {
                    applicable.add(s);
                } else {
                    progress.printf("chaos: %-36s %-34s ... not applicable: %s%n", kind.name(), s.title(), why);
                }
            }
            return applicable;
        } catch (RuntimeException e) {
            return wanted;
        }
    }

    /**
     * With the system property {@value #HISTORIES} naming a directory, writes a run's events there (one line each,
     * in time order), so a violation can be traced to the acquisitions behind it.
     */
    private static void keepHistory(String store, Scenario scenario, List<Event> events) throws java.io.IOException {
        String dir = System.getProperty(HISTORIES);
        if (dir == null || dir.isBlank()) {
            return;
        }
        java.nio.file.Path file = java.nio.file.Path.of(dir, (store + "-" + scenario.title())
                .replaceAll("[^A-Za-z0-9]+", "-") + "-" + System.currentTimeMillis() + ".txt");
        java.nio.file.Files.createDirectories(file.getParent());
        java.nio.file.Files.write(file, events.stream().sorted(java.util.Comparator.comparingLong(Event::nanos))
                .map(Event::toLine).toList());
    }

    /** One scenario on a fresh target; null if it does not apply. */
    ChaosResult runOne(StoreKind kind, Scenario scenario) {
        try (StoreTarget target = kind.factory().get()) {
            String why = scenario.notApplicable(target);
            if (why != null) {
                return null;
            }
            boolean unsafe = kind.unsafeByDesign().contains(scenario);
            try (ChaosRun run = new ChaosRun(target, scenario.needsProxy(), WorkerShape.forLease(target.lease()),
                    WorkerProgram.lock(threadsPerWorker))) {
                run.startWorkers(workers);
                Scenario.Injection injection = scenario.inject(run, faults);
                run.runFor(settle);
                List<Event> events = run.stopAndCollect();
                keepHistory(kind.name(), scenario, events);
                String note = String.join("; ", java.util.stream.Stream.of(
                        unsafe ? "unsafe by design for this store and fault (see README)" : "", target.note())
                        .filter(n -> !n.isEmpty()).toList());
                if (scenario == Scenario.CLOCK_SKEW) {
                    note = note.isEmpty() ? WrongClock.note(events) : note + "; " + WrongClock.note(events);
                }
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
