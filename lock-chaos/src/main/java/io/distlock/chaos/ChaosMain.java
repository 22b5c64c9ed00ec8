package io.distlock.chaos;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The fault suite as a command (also {@code distlock chaos}): runs the chosen stores and scenarios, prints progress,
 * writes {@code chaos-report.md}, and returns 1 if any run misses its bars (runs unsafe by design that show only
 * their documented overlaps do not count as missed).
 */
public final class ChaosMain {

    /** Faults per scenario and store when not told otherwise. */
    public static final int DEFAULT_FAULTS = 10;

    /** Worker JVMs per run when not told otherwise. */
    public static final int DEFAULT_WORKERS = 3;

    private ChaosMain() {
    }

    /** Every store the suite knows, by its command-line name. */
    public static List<String> storeNames() {
        return List.copyOf(stores().keySet());
    }

    /** Every store the suite knows, by the name used on the command line. */
    static Map<String, ChaosSuite.StoreKind> stores() {
        Map<String, ChaosSuite.StoreKind> stores = new LinkedHashMap<>();
        for (RedisPersistence p : RedisPersistence.values()) {
            for (boolean guard : new boolean[] {false, true}) {
                String cli = "redis" + (p == RedisPersistence.NONE ? "" : "-" + cliName(p)) + (guard ? "-guard" : "");
                // without the guard, a restart that lost the latest lock keys lets a second holder in
                List<Scenario> unsafe = !guard && p != RedisPersistence.AOF_ALWAYS ? List.of(Scenario.SERVER_RESTART)
                        : List.of();
                // the persistence modes only change what a server crash does: the other faults run on "redis"
                Set<Scenario> only = p == RedisPersistence.NONE ? Set.of() : Set.of(Scenario.SERVER_RESTART);
                stores.put(cli, new ChaosSuite.StoreKind(RedisTarget.name(p, guard), () -> new RedisTarget(p, guard),
                        unsafe, only));
            }
        }
        stores.put("redis-sentinel", new ChaosSuite.StoreKind("redis (Sentinel: master + async replica)",
                RedisSentinelTarget::new, List.of(Scenario.FAILOVER),
                Set.of(Scenario.FAILOVER, Scenario.CLIENT_PAUSE)));
        stores.put("redis-failback-guard", new ChaosSuite.StoreKind("redis (master + replica, fail-back, restartGuard)",
                RedisFailBackTarget::new, List.of(), Set.of(Scenario.FAIL_BACK)));
        stores.put("redis-sentinel-failback-guard", new ChaosSuite.StoreKind(
                "redis (Sentinel: master + async replica, fail-back, restartGuard)",
                () -> new RedisSentinelTarget(true), List.of(), Set.of(Scenario.FAIL_BACK)));
        stores.put("redis-cluster", new ChaosSuite.StoreKind("redis (Cluster: 3 masters + async replicas)",
                RedisClusterTarget::new, List.of(Scenario.FAILOVER),
                Set.of(Scenario.FAILOVER, Scenario.CLIENT_PAUSE)));
        stores.put("zookeeper", new ChaosSuite.StoreKind("zookeeper", ZooKeeperTarget::new, List.of(), Set.of()));
        stores.put("zookeeper-ensemble", new ChaosSuite.StoreKind("zookeeper (3-node ensemble)",
                ZooKeeperEnsembleTarget::new, List.of(), Set.of()));
        stores.put("zookeeper-partition", new ChaosSuite.StoreKind("zookeeper (3 JVMs, members behind proxies)",
                ZooKeeperPartitionTarget::new, List.of(), Set.of(Scenario.LEADER_PARTITION, Scenario.CLIENT_PAUSE)));
        stores.put("redlock", new ChaosSuite.StoreKind("redlock (5 masters)", RedlockTarget::new, List.of(),
                Set.of()));
        stores.put("mariadb", new ChaosSuite.StoreKind("mariadb", MariaDbTarget::new, List.of(), Set.of()));
        stores.put("postgresql", new ChaosSuite.StoreKind("postgresql", PostgresTarget::new, List.of(), Set.of()));
        stores.put("h2", new ChaosSuite.StoreKind(H2Target.name(null), () -> new H2Target(null), List.of(), Set.of()));
        stores.put("h2-write-delay-0", new ChaosSuite.StoreKind(H2Target.name(0), () -> new H2Target(0), List.of(),
                Set.of()));
        return stores;
    }

    /** Every scenario by its command-line name. */
    public static List<String> scenarioNames() {
        return Arrays.stream(Scenario.values()).map(ChaosMain::cliName).toList();
    }

    /** Entry point: {@code --store LIST --scenario LIST --workload LIST --faults N --workers N --report FILE}. */
    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Parses {@code args} and runs; 2 on a usage error (named on {@code err}). */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        try {
            Map<String, String> options = parse(args);
            int faults = Integer.parseInt(options.getOrDefault("faults",
                    options.getOrDefault("rounds", Integer.toString(DEFAULT_FAULTS))));
            int workers = Integer.parseInt(options.getOrDefault("workers", Integer.toString(DEFAULT_WORKERS)));
            return run(List.of(options.getOrDefault("store", "all").split(",")),
                    List.of(options.getOrDefault("scenario", "all").split(",")),
                    List.of(options.getOrDefault("workload", "lock").split(",")), faults, workers,
                    Path.of(options.getOrDefault("report", "chaos-report.md")),
                    "java io.distlock.chaos.ChaosMain " + String.join(" ", args), out);
        } catch (IllegalArgumentException e) {
            err.println("chaos: " + e.getMessage());
            err.println("usage: ChaosMain [--store all|" + String.join(",", stores().keySet()) + "] [--scenario all|"
                    + String.join(",", scenarioNames()) + "] [--workload " + String.join("|", workloadNames())
                    + "] [--faults N] [--workers N] [--report FILE]");
            return 2;
        }
    }

    /**
     * Runs {@code storeNames} x {@code scenarioNames} ("all" for every one), {@code faults} faults each, writes the
     * report and returns 0 if every run met its bars, 1 otherwise.
     *
     * @throws IllegalArgumentException naming an unknown store or scenario, or a count below 1
     */
    public static int run(List<String> storeNames, List<String> scenarioNamesAsked, int faults, int workers,
            Path report, String commandLine, PrintWriter progress) {
        return run(storeNames, scenarioNamesAsked, List.of(Workload.LOCK.cliName()), faults, workers, report,
                commandLine, progress);
    }

    /** Every workload by its command-line name (lock is the default). */
    public static List<String> workloadNames() {
        return Arrays.stream(Workload.values()).map(Workload::cliName).toList();
    }

    /**
     * Runs {@code storeNames} x {@code scenarioNames} with each of {@code workloadNames} (lock, leadership,
     * semaphore, sql-fence-postgresql, sql-fence-mariadb), {@code faults} faults each, writes the report (a table
     * per workload) and returns 0 if every run met its bars, 1 otherwise.
     *
     * @throws IllegalArgumentException naming an unknown store, scenario or workload, or a count below 1
     */
    public static int run(List<String> storeNames, List<String> scenarioNamesAsked, List<String> workloadNames,
            int faults, int workers, Path report, String commandLine, PrintWriter progress) {
        List<Workload> workloads = expand(workloadNames, workloadNames()).stream().map(Workload::named).distinct()
                .toList();
        if (faults < 1 || workers < 2) {
            throw new IllegalArgumentException("need at least 1 fault and 2 workers, got faults=" + faults
                    + " workers=" + workers);
        }
        Map<String, ChaosSuite.StoreKind> known = stores();
        List<ChaosSuite.StoreKind> stores = new ArrayList<>();
        for (String name : expand(storeNames, known.keySet())) {
            ChaosSuite.StoreKind kind = known.get(name);
            if (kind == null) {
                throw new IllegalArgumentException("unknown store '" + name + "'; known: " + known.keySet());
            }
            stores.add(kind);
        }
        List<String> allScenarios = scenarioNames();
        List<Scenario> scenarios = new ArrayList<>();
        for (String name : expand(scenarioNamesAsked, allScenarios)) {
            if (!allScenarios.contains(name)) {
                throw new IllegalArgumentException("unknown scenario '" + name + "'; known: " + allScenarios);
            }
            scenarios.add(Scenario.values()[allScenarios.indexOf(name)]);
        }
        long start = System.nanoTime();
        StringBuilder sections = new StringBuilder();
        List<String> summaries = new ArrayList<>();
        boolean allMet = true;
        for (Workload workload : workloads) {
            if (workload.isLock()) {
                List<ChaosResult> results = new ChaosSuite(workers, faults, Duration.ofSeconds(2),
                        workload.threadsPerWorker()).run(stores, scenarios, progress);
                String heading = workload == Workload.LOCK ? "" : "\n### Lock workload, " + workload.title() + "\n";
                sections.append(ChaosReport.markdown(results, heading)).append(Definitions.TEXT);
                summaries.add(ChaosReport.summary(results));
                allMet &= results.stream().allMatch(ChaosResult::meetsBars);
            } else {
                List<WorkloadResult> results = new WorkloadSuite(workload, workers, faults, Duration.ofSeconds(2))
                        .run(stores, scenarios, progress);
                sections.append(WorkloadReport.markdown(workload, results));
                summaries.add(WorkloadReport.summary(workload, results));
                allMet &= results.stream().allMatch(WorkloadResult::meetsBars);
            }
        }
        String header = header(commandLine, workers, faults, Duration.ofNanos(System.nanoTime() - start));
        try {
            Files.writeString(report, header + sections, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write " + report, e);
        }
        summaries.forEach(progress::println);
        progress.println("chaos: wrote " + report.toAbsolutePath());
        progress.flush();
        return allMet ? 0 : 1;
    }

    static String cliName(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static List<String> expand(List<String> asked, java.util.Collection<String> all) {
        List<String> names = new ArrayList<>();
        for (String name : asked) {
            if (name.strip().equals("all")) {
                names.addAll(all);
            } else if (!name.isBlank()) {
                names.add(name.strip());
            }
        }
        return names;
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("bad argument '" + args[i] + "'");
            }
            options.put(args[i].substring(2), args[++i]);
        }
        return options;
    }

    private static String header(String commandLine, int workers, int faults, Duration took) {
        Runtime rt = Runtime.getRuntime();
        return "# distlock fault-injection report\n\n"
                + "Produced by `" + commandLine + "` on " + Instant.now() + " in " + took.toSeconds() + " s.\n\n"
                + "Machine: " + rt.availableProcessors() + " cores, " + ManagementFactory.getOperatingSystemMXBean()
                .getName() + " " + System.getProperty("os.version") + ", Java " + Runtime.version() + ". "
                + workers + " worker JVMs per run, " + faults + " faults per run (each after a random delay of up "
                + "to one lease), holds of 5 ms to half the lease with extend() in half of them; every server "
                + "started by the run on a free port on loopback (MariaDB, PostgreSQL and Redis as real processes, "
                + "H2 and ZooKeeper in JVMs of their own).\n";
    }
}
