package io.distlock.bench;

import io.distlock.bench.core.Contender;
import io.distlock.bench.core.RoundTripProxy;
import io.distlock.bench.core.Sample;
import io.distlock.bench.core.Scenario;
import io.distlock.bench.core.StoreBench;
import io.distlock.bench.result.HeldLeasesResult;
import io.distlock.bench.result.ScenarioResult;
import io.distlock.bench.result.StoreResult;
import io.distlock.bench.result.WireCost;
import io.distlock.bench.scenario.Contended;
import io.distlock.bench.scenario.Handoff;
import io.distlock.bench.scenario.HeldLeases;
import io.distlock.bench.scenario.RoundTripProbe;
import io.distlock.bench.scenario.SemaphoreScenario;
import io.distlock.bench.scenario.Uncontended;
import io.distlock.bench.report.History;
import io.distlock.bench.report.JfrProfile;
import io.distlock.bench.report.Machine;
import io.distlock.bench.report.TargetCheck;
import io.distlock.bench.report.Targets;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Runs every scenario for every contender of one store. Runs are interleaved (round 1 of every contender, then
 * round 2, ...) so a burst of load from elsewhere on the machine spreads over all contenders instead of landing on
 * one. Each contender is warmed up in each scenario before its first measured run. A contender that fails is
 * reported as failed and skipped from then on; the others go on.
 */
public final class BenchRunner {

    private final BenchConfig config;
    private final ScaleConfig scale;
    private final PrintStream log;

    public BenchRunner(BenchConfig config, PrintStream log) {
        this(config, ScaleConfig.off(), log);
    }

    public BenchRunner(BenchConfig config, ScaleConfig scale, PrintStream log) {
        this.config = config;
        this.scale = scale;
        this.log = log;
    }

    /** The scenarios re-run at a real round-trip time: the side-by-side ones that decide the at-RTT targets. */
    public List<Scenario> roundTripTimeScenarios() {
        return chosen(List.of(
                new Uncontended(1),
                new Contended(config.threads(), config.clients()),
                new Handoff(config.settle()),
                SemaphoreScenario.contended(config.threads(), config.clients())));
    }

    /** The scenarios of the run, in report order. */
    public List<Scenario> scenarios() {
        return chosen(allScenarios());
    }

    /** Every scenario the harness knows, in report order, chosen or not. */
    public List<Scenario> allScenarios() {
        return List.of(
                new Uncontended(1),
                new Uncontended(config.threads()),
                new Contended(config.threads(), config.clients()),
                new Handoff(config.settle()),
                SemaphoreScenario.uncontended(1),
                SemaphoreScenario.uncontended(config.threads()),
                SemaphoreScenario.contended(config.threads(), config.clients()));
    }

    /** Those of {@code scenarios} that {@code --scenarios} chose. */
    private List<Scenario> chosen(List<Scenario> scenarios) {
        return scenarios.stream().filter(s -> config.runs(s.id())).toList();
    }

    /** Measures {@code store}; never throws for a contender's failure, only records it. */
    public StoreResult run(StoreBench store) throws Exception {
        StoreResult result = new StoreResult(store.name(), store.describeServer());
        double loadAtStart = Machine.loadAverage();
        String runId = Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36);
        List<Contender> contenders = store.contenders(store.server());
        try {
            measureScenarios(store, contenders, runId, result);
            if (config.profileMissed()) {
                profileMissedTargets(store, contenders, runId, result);
            }
        } finally {
            closeAll(contenders, result);
        }
        boolean hasServer = store.server().port() > 0;
        if (hasServer && (config.pairsForRoundTrips() > 0 || config.heldLeases() > 0)) {
            measureThroughProxy(store, runId, result);
        }
        if (hasServer) {
            new ScaleRunner(scale, config.heldLeaseTime(), log)
                    .run(store, runId, result, roundTripTimeScenarios(), this::measureScenarios);
        }
        result.load(loadAtStart, Machine.loadAverage());
        return result;
    }

    private void measureScenarios(StoreBench store, List<Contender> contenders, String runId, StoreResult result) {
        measureScenarios(store.name(), scenarios(), contenders, runId, result);
    }

    private void measureScenarios(String label, List<Scenario> scenarios, List<Contender> contenders, String runId,
                                  StoreResult result) {
        Map<String, ScenarioResult> byKey = new LinkedHashMap<>();
        for (Scenario scenario : scenarios) {
            for (Contender contender : contenders) {
                if (scenario.appliesTo(contender)) {
                    ScenarioResult r = new ScenarioResult(contender.name(), contender.role(), scenario.id(),
                            scenario.reportsThroughput());
                    byKey.put(key(contender, scenario), r);
                    result.scenarios().add(r);
                }
            }
        }
        for (int round = 1; round <= config.runs(); round++) {
            for (Scenario scenario : scenarios) {
                for (int c = 0; c < contenders.size(); c++) {
                    Contender contender = contenders.get(c);
                    ScenarioResult r = byKey.get(key(contender, scenario));
                    if (r == null || r.failed()) {
                        continue;
                    }
                    String prefix = "bench:" + runId + ":c" + c + ":";
                    try {
                        if (round == 1 && !config.warmup().isZero()) {
                            scenario.run(contender, prefix, config.warmup());
                        }
                        Sample sample = scenario.run(contender, prefix, config.duration());
                        r.add(sample.opsPerSecond(), sample.operations(), sample.latencyNanos(),
                                sample.crossClientHandoffs());
                        r.addAllocation(sample.operations(), sample.callingThreadBytes(), sample.otherThreadBytes());
                        log.printf(Locale.ROOT, "  %-10s run %d/%d  %-16s %-38s %,10.0f ops/s  p99 %8.3f ms%n",
                                label, round, config.runs(), scenario.id(), contender.name(),
                                sample.opsPerSecond(), sample.latencyNanos().getValueAtPercentile(99) / 1e6);
                    } catch (Exception e) {
                        r.fail(describe(e));
                        log.printf("  %-10s %-16s %-38s FAILED: %s%n", label, scenario.id(), contender.name(),
                                describe(e));
                    }
                }
            }
        }
    }

    /** The performance targets for this run's scenario ids. */
    public Targets targets() {
        return new Targets(new Uncontended(config.threads()).id(),
                new Contended(config.threads(), config.clients()).id());
    }

    /** This run's rows of the history: distlock's key ratios per store. */
    public List<History.Row> historyRows(java.time.Instant startedAt, String commit, List<StoreResult> stores) {
        return History.rowsOf(startedAt, commit, stores, new Uncontended(config.threads()).id(),
                new Contended(config.threads(), config.clients()).id());
    }

    /** Takes a JFR profile of distlock in every scenario where it misses a throughput or latency target. */
    private void profileMissedTargets(StoreBench store, List<Contender> contenders, String runId, StoreResult result) {
        Set<String> done = new HashSet<>();
        for (TargetCheck check : targets().check(result)) {
            if (check.verdict() != TargetCheck.Verdict.MISSED || check.contender() == null
                    || !done.add(check.scenario())) {
                continue;
            }
            for (int c = 0; c < contenders.size(); c++) {
                Contender contender = contenders.get(c);
                if (contender.role() != check.contender()) {
                    continue;
                }
                for (Scenario scenario : scenarios()) {
                    if (!scenario.id().equals(check.scenario())) {
                        continue;
                    }
                    Path file = config.outputDirectory().resolve("target")
                            .resolve("bench-" + store.name() + "-" + scenario.id() + ".jfr");
                    try {
                        Files.createDirectories(file.getParent());
                        log.printf("  %-10s profiling %s in %s with JFR%n", store.name(), contender.name(),
                                scenario.id());
                        result.profiles().add(JfrProfile.profile(store.name(), contender, scenario,
                                "bench:" + runId + ":c" + c + ":", config.duration(), file));
                    } catch (Exception e) {
                        result.notes().add("JFR profile of " + contender.name() + " in " + scenario.id() + " failed: "
                                + describe(e));
                    }
                }
            }
        }
    }

    /** Round trips per pair and held leases, with fresh contenders connected through a counting proxy. */
    private void measureThroughProxy(StoreBench store, String runId, StoreResult result) throws Exception {
        try (RoundTripProxy proxy = new RoundTripProxy(store.server())) {
            List<Contender> contenders = store.contenders(proxy.address());
            try {
                for (int c = 0; c < contenders.size(); c++) {
                    Contender contender = contenders.get(c);
                    String prefix = "bench:" + runId + ":p" + c + ":";
                    if (config.pairsForRoundTrips() > 0 && !contender.role().handoffOnly()) {
                        try {
                            WireCost perPair = RoundTripProbe.perPair(contender, proxy, prefix,
                                    config.pairsForRoundTrips(), store::serverCpuSeconds);
                            result.roundTripsPerPair().put(contender.name(), perPair);
                            log.printf(Locale.ROOT,
                                    "  %-10s per pair  %-38s %.2f round trips, %.2f pushed, server CPU %.1f us%n",
                                    store.name(), contender.name(), perPair.roundTrips(), perPair.pushes(),
                                    perPair.serverCpuMicros());
                        } catch (Exception e) {
                            result.notes().add("Round trips per pair of " + contender.name() + " not measured: "
                                    + describe(e));
                        }
                    }
                    if (config.heldLeases() > 0 && contender.canHoldWithRenewal()) {
                        HeldLeasesResult held;
                        try {
                            held = new HeldLeases(config.heldLeases(), config.heldLeaseTime())
                                    .run(contender, proxy, prefix);
                        } catch (Exception e) {
                            held = HeldLeasesResult.failed(contender.name(), config.heldLeases(),
                                    config.heldLeaseTime(), describe(e));
                        }
                        result.heldLeases().add(held);
                        log.printf(Locale.ROOT,
                                "  %-10s held %d leases  %-38s %.1f round trips/interval, %d B/lease%s%n",
                                store.name(), held.leases(), contender.name(), held.roundTripsPerInterval(),
                                held.heapBytesPerLease(), held.failure() == null ? "" : "  (" + held.failure() + ")");
                    }
                }
            } finally {
                closeAll(contenders, result);
            }
        }
    }

    private static String key(Contender contender, Scenario scenario) {
        return contender.name() + "\u0000" + scenario.id();
    }

    private void closeAll(List<Contender> contenders, StoreResult result) {
        for (Contender contender : contenders) {
            try {
                contender.close();
            } catch (Exception e) {
                result.notes().add("Closing " + contender.name() + " failed: " + describe(e));
            }
        }
    }

    /** A one-line description of a failure: its type and message, and its first cause. */
    static String describe(Throwable e) {
        String text = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        Throwable cause = e.getCause();
        if (cause != null && cause != e) {
            text += " (cause: " + cause.getClass().getSimpleName()
                    + (cause.getMessage() == null ? "" : ": " + cause.getMessage()) + ")";
        }
        return text.replace('\n', ' ').replace('|', '/');
    }

    /** For the report: the scenarios' titles by id. */
    public Map<String, String> scenarioTitles() {
        Map<String, String> titles = new LinkedHashMap<>();
        for (Scenario s : scenarios()) {
            titles.put(s.id(), s.title());
        }
        return titles;
    }

    /** Names of every scenario id, for tests. */
    List<String> scenarioIds() {
        List<String> ids = new ArrayList<>();
        scenarios().forEach(s -> ids.add(s.id()));
        return ids;
    }
}
