package io.distlock.chaos.explore;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The explorer as a command ({@code distlock explore}): every store, scenario, step and fault asked for, progress one
 * line per run, a markdown report, exit status 1 if a run broke a bar. {@code --run NAME} replays one run.
 *
 * <pre>
 * explore [--store redis,postgresql,zookeeper|all] [--scenario lock,semaphore,leadership|all]
 *         [--fault request-lost,...|all] [--steps 1,5,9] [--stride N] [--report FILE] [--run NAME] [--list]
 * </pre>
 */
public final class ExploreMain {

    private ExploreMain() {
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(args, new PrintWriter(System.out, true)));
    }

    /** Runs the command; returns the exit status. */
    public static int run(String[] args, PrintWriter out) throws Exception {
        Map<String, String> opts = options(args);
        if (opts.containsKey("list")) {
            out.println("stores: " + Arrays.stream(ExploreStore.values()).map(ExploreStore::label).toList());
            out.println("scenarios: " + Scenario.names());
            out.println("faults: " + Fault.injected().stream().map(Fault::label).toList());
            return 0;
        }
        if (opts.containsKey("run")) {
            RunName name = RunName.parse(opts.get("run"));
            if (!name.store().supports(name.fault())) {
                throw new IllegalArgumentException("the explorer cannot inject " + name.fault().label() + " on "
                        + name.store().label());
            }
            try (Explorer explorer = new Explorer(name.store())) {
                ExploreResult r = explorer.run(name.scenario(), name.step(), name.fault());
                out.println(line(r));
                out.println("steps: " + ExploreReport.ranges(explorer.lastLabels()));
                r.history().forEach(out::println);
                return r.clean() ? 0 : 1;
            }
        }
        List<ExploreStore> stores = pick(opts.getOrDefault("store", "redis,postgresql,zookeeper"),
                Arrays.asList(ExploreStore.values()), ExploreStore::of);
        List<Scenario> scenarios = pick(opts.getOrDefault("scenario", "all"), Arrays.asList(Scenario.values()),
                Scenario::of);
        List<Fault> faults = pick(opts.getOrDefault("fault", "all"), Fault.injected(), Fault::of);
        List<Integer> steps = opts.containsKey("steps")
                ? Arrays.stream(opts.get("steps").split(",")).map(Integer::parseInt).toList() : List.of();
        int stride = Integer.parseInt(opts.getOrDefault("stride", "1"));
        ExploreReport report = new ExploreReport();
        long start = System.nanoTime();
        for (ExploreStore store : stores) {
            try (Explorer explorer = new Explorer(store)) {
                for (Scenario scenario : scenarios) {
                    List<String> labels = explorer.count(scenario);
                    report.counted(store.label() + " / " + scenario.label(), labels);
                    out.println(store.label() + " / " + scenario.label() + ": " + labels.size() + " steps: "
                            + ExploreReport.ranges(labels));
                    List<Integer> chosen = steps.isEmpty() ? strided(labels.size(), stride) : steps;
                    for (int step : chosen) {
                        for (Fault fault : faults.stream().filter(store::supports).toList()) {
                            ExploreResult r = explorer.run(scenario, step, fault);
                            report.add(r);
                            out.println(line(r));
                            out.flush();
                            if (opts.containsKey("report")) { // rewritten per run: a cut-short run keeps its rows
                                report.write(Path.of(opts.get("report")), command(args),
                                        Duration.ofNanos(System.nanoTime() - start));
                            }
                        }
                    }
                }
            }
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        long broken = report.results().stream().filter(r -> !r.clean()).count();
        out.println(report.results().size() + " runs, " + broken + " broke a bar, in " + took.toMinutes() + " min");
        if (opts.containsKey("report")) {
            report.write(Path.of(opts.get("report")), command(args), took);
            out.println("wrote " + opts.get("report"));
        }
        return broken == 0 ? 0 : 1;
    }

    private static String command(String[] args) {
        return "distlock explore " + String.join(" ", args);
    }

    static String line(ExploreResult r) {
        return String.format("%-46s %-7s %5.1fs  at %-28s %s", r.name(), r.clean() ? (r.reached() ? "ok" : "unreached")
                : "BROKEN", r.took().toMillis() / 1000.0, r.injectedAt() == null ? "-" : r.injectedAt(),
                r.clean() ? "" : String.join("; ", r.violations()));
    }

    private static List<Integer> strided(int n, int stride) {
        List<Integer> all = new ArrayList<>();
        for (int i = 1; i <= n; i += stride) {
            all.add(i);
        }
        return all;
    }

    private static <T> List<T> pick(String text, List<T> all, java.util.function.Function<String, T> of) {
        return text.equals("all") ? all : Arrays.stream(text.split(",")).map(String::trim).map(of).toList();
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument '" + a + "'");
            }
            String key = a.substring(2);
            if (key.equals("list")) {
                opts.put(key, "");
            } else if (i + 1 < args.length) {
                opts.put(key, args[++i]);
            } else {
                throw new IllegalArgumentException("option --" + key + " needs a value");
            }
        }
        return opts;
    }
}
