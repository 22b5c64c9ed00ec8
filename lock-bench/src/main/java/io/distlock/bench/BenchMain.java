package io.distlock.bench;

import io.distlock.bench.core.HostPort;
import io.distlock.bench.core.StoreBench;
import io.distlock.bench.redis.RedisBench;
import io.distlock.bench.report.BenchReport;
import io.distlock.bench.report.History;
import io.distlock.bench.report.Machine;
import io.distlock.bench.report.MarkdownReport;
import io.distlock.bench.report.ScaleReport;
import io.distlock.bench.report.SvgChart;
import io.distlock.bench.report.TargetCheck;
import io.distlock.bench.result.StoreResult;
import io.distlock.bench.sql.SqlBench;
import io.distlock.bench.sql.CompetitorSql;
import io.distlock.bench.zookeeper.ZooKeeperBench;
import io.distlock.spi.StoreUri;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The benchmark command: runs distlock, the libraries users would pick instead and the raw store limit on the same
 * servers in one run, and writes {@code bench-report.md} and {@code bench-chart.svg}. Run it with
 * {@code ./distlock bench --quick} (the launcher builds and runs lock-bench's own jar) or
 * {@code ./mvnw -q -pl lock-bench exec:java -Dexec.args="--store all --duration 5s"}.
 */
@Command(name = "distlock-bench", mixinStandardHelpOptions = true,
        description = "Side-by-side lock benchmarks: distlock vs Redisson, Curator, Spring Integration and the "
                + "raw store.")
public final class BenchMain implements Callable<Integer> {

    @Option(names = "--store", split = ",", defaultValue = "all",
            description = "Stores to run: all, or any of redis, zookeeper, mariadb, postgresql, mem (default: all).")
    private List<String> stores = new ArrayList<>();

    @Option(names = "--duration", defaultValue = "3s", description = "Measured duration of each run (default: 3s).")
    private String duration;

    @Option(names = "--warmup", defaultValue = "1s",
            description = "Warm-up of each contender in each scenario before its first run (default: 1s).")
    private String warmup;

    @Option(names = "--runs", defaultValue = "3", description = "Measured runs; the median is reported (default: 3).")
    private int runs;

    @Option(names = "--threads", defaultValue = "8",
            description = "Threads of the multi-threaded scenarios (default: 8).")
    private int threads;

    @Option(names = "--clients", defaultValue = "2",
            description = "Independent clients in the contended scenario (default: 2).")
    private int clients;

    @Option(names = "--settle", defaultValue = "5ms",
            description = "Hand-off: how long the holder waits before releasing, so the other is waiting "
                    + "(default: 5ms).")
    private String settle;

    @Option(names = "--held", defaultValue = "10000",
            description = "Leases held at once in scenario 4; 0 skips it (default: 10000).")
    private int held;

    @Option(names = "--held-lease-time", defaultValue = "6s",
            description = "Lease time in scenario 4; renewal every third of it (default: 6s).")
    private String heldLeaseTime;

    @Option(names = "--round-trip-pairs", defaultValue = "200",
            description = "Pairs counted through the proxy for round trips per pair; 0 skips it (default: 200).")
    private int roundTripPairs;

    @Option(names = "--redis", defaultValue = "127.0.0.1:6379",
            description = "Redis host:port (default: 127.0.0.1:6379).")
    private String redis;

    @Option(names = "--mariadb", defaultValue = "127.0.0.1:3306",
            description = "MariaDB host:port, database test, user root (default: 127.0.0.1:3306).")
    private String mariadb;

    @Option(names = "--postgresql", defaultValue = "127.0.0.1:5432",
            description = "PostgreSQL host:port, database test, user postgres (default: 127.0.0.1:5432).")
    private String postgresql;

    @Option(names = "--distlock-uri",
            description = "distlock URI template for a store, STORE=URI with {host} and {port}, "
                    + "e.g. redis=redis://{host}:{port}. Repeatable.")
    private Map<String, String> distlockUris = new HashMap<>();

    @Option(names = "--out", description = "Directory for bench-report.md and bench-chart.svg "
            + "(default: lock-bench if it exists here, else the current directory).")
    private Path out;

    @Option(names = "--cost-runs", defaultValue = "5",
            description = "Metered runs per contender for the counted costs per operation; 0 skips them (default: 5).")
    private int costRuns;

    @Option(names = "--cost-duration", defaultValue = "1s", description = "Duration of each metered run (default: 1s).")
    private String costDuration;

    @Option(names = "--cost-delay", split = ",", defaultValue = "1ms",
            description = "Delay each way at which the counted costs run once more, each its own report section, "
                    + "comma list; none skips it (default: 1ms, a 2 ms round trip).")
    private List<String> costDelays = new ArrayList<>();

    @Option(names = "--delay", split = ",", defaultValue = "0.25ms",
            description = "Delay each way of the proxy for the at-round-trip-time runs, comma list, e.g. 0.25ms,1ms; "
                    + "none skips them (default: 0.25ms, a 0.5 ms round trip).")
    private List<String> delays = new ArrayList<>();

    @Option(names = "--waiters", split = ",", defaultValue = "1,4,16,64",
            description = "Clients on one name for the waiters curve; none skips it (default: 1,4,16,64).")
    private List<String> waiters = new ArrayList<>();

    @Option(names = "--waiters-duration", defaultValue = "2s",
            description = "Duration of each waiters point (default: 2s).")
    private String waitersDuration;

    @Option(names = "--waiters-hold", defaultValue = "20ms",
            description = "How long each waiter holds the lock (default: 20ms: long enough that the others poll "
                    + "or wait for a message rather than the releaser taking it straight back).")
    private String waitersHold;

    @Option(names = "--names-once", split = ",", defaultValue = "100000",
            description = "Distinct names locked once each to count what they leave behind, comma list for a curve; "
                    + "0 or none skips it (default: 100000).")
    private List<String> namesOnce = new ArrayList<>();

    @Option(names = "--names-grace", defaultValue = "5s",
            description = "Grace after the 30 s lease before counting again what names used once left (default: 5s).")
    private String namesGrace;

    @Option(names = "--held-curve", split = ",", defaultValue = "1000,10000,100000",
            description = "Held-lease counts of the held-leases curve; none skips it (default: 1000,10000,100000).")
    private List<String> heldCurve = new ArrayList<>();

    @Option(names = "--scenarios", split = ",",
            description = "Scenarios to run, by id, at no delay and at each --delay (e.g. handoff); default: all.")
    private List<String> scenarioIds = new ArrayList<>();

    @Option(names = "--no-profile", description = "Do not take JFR profiles of distlock where it misses a target.")
    private boolean noProfile;

    @Option(names = "--quick", description = "Sizes that fit about half an hour on a small shared host: "
            + QuickPreset.DESCRIPTION + "; options given explicitly win.")
    private boolean quick;

    @Spec
    private CommandSpec spec;

    private final String[] originalArgs;
    private final PrintStream log;

    BenchMain(String[] originalArgs, PrintStream log) {
        this.originalArgs = originalArgs.clone();
        this.log = log;
    }

    /** Entry point; exits with 0 on success, 1 if no store could run, 2 on bad arguments. */
    public static void main(String[] args) {
        quietLogging();
        int code = new CommandLine(new BenchMain(args, System.out)).execute(args);
        if (code != 0 || System.getProperty(LAUNCHER_PROPERTY) != null) {
            // from the launcher's jar, a library thread left behind must not keep the JVM alive
            System.exit(code);
        }
    }

    private static void quietLogging() {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel",
                System.getProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn"));
        System.setProperty("zookeeper.admin.enableServer", "false");
    }

    @Override
    public Integer call() throws Exception {
        if (quick) {
            QuickPreset.apply(spec);
        }
        BenchConfig config = config();
        Instant started = Instant.now();
        double loadBefore = Machine.loadAverage();
        ScaleConfig scale = scaleConfig();
        String settings = settings(config) + "; " + scaleSettings(scale);
        log.println("distlock bench: " + String.join(", ", config.stores()) + "; " + settings);
        BenchRunner runner = new BenchRunner(config, scale, log);
        String commit = Machine.commit();
        History history = History.read(config.outputDirectory());
        BenchReport report = null;
        List<StoreResult> results = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        List<TargetCheck> checks = new ArrayList<>();
        List<String> stores = config.stores();
        for (int i = 0; i < stores.size(); i++) {
            String store = stores.get(i);
            log.println("== " + store);
            try (StoreBench bench = open(store, config)) {
                results.add(runner.run(bench));
            } catch (Exception e) {
                missing.add(store + ": " + BenchRunner.describe(e));
                log.println("  " + store + " could not run: " + BenchRunner.describe(e));
            }
            // written after every store, so an interrupted run still leaves what it measured
            checks.clear();
            results.forEach(r -> checks.addAll(runner.targets().check(r)));
            List<String> notRun = new ArrayList<>(missing);
            stores.subList(i + 1, stores.size()).forEach(s -> notRun.add(s + ": not reached yet (run in progress)"));
            report = new BenchReport(started, Duration.between(started, Instant.now()).toSeconds() / 60.0,
                    config.command(), Machine.describe(), loadBefore, Machine.loadAverage(), settings,
                    runner.scenarioTitles(), results, checks, notRun, commit,
                    runner.historyRows(started, commit, results), history.rows());
            write(config, report);
        }
        if (report != null) {
            History.append(config.outputDirectory(), report.thisRun());
        }
        Path md = config.outputDirectory().resolve("bench-report.md");
        Path svg = config.outputDirectory().resolve("bench-chart.svg");
        log.println("targets:");
        for (TargetCheck check : checks) {
            log.printf("  %-10s %-70s %-12s %s%n", check.store(), check.target(), check.verdict(), check.measured());
        }
        log.println("wrote " + md + " and " + svg + "; appended this run's key ratios to "
                + config.outputDirectory().resolve(History.FILE));
        return results.isEmpty() ? 1 : 0;
    }

    private static void write(BenchConfig config, BenchReport report) throws java.io.IOException {
        Files.createDirectories(config.outputDirectory());
        Files.writeString(config.outputDirectory().resolve("bench-report.md"), MarkdownReport.render(report),
                StandardCharsets.UTF_8);
        Files.writeString(config.outputDirectory().resolve("bench-chart.svg"), SvgChart.render(report),
                StandardCharsets.UTF_8);
        if (ScaleReport.any(report)) {
            Files.writeString(config.outputDirectory().resolve(ScaleReport.WAITERS_SVG),
                    ScaleReport.waitersChart(report),
                    StandardCharsets.UTF_8);
            Files.writeString(config.outputDirectory().resolve(ScaleReport.NAMES_SVG), ScaleReport.namesChart(report),
                    StandardCharsets.UTF_8);
            Files.writeString(config.outputDirectory().resolve(ScaleReport.HELD_SVG), ScaleReport.heldChart(report),
                    StandardCharsets.UTF_8);
        }
    }

    private BenchConfig config() {
        List<String> chosen = new ArrayList<>();
        for (String s : stores) {
            String name = s.strip().toLowerCase(Locale.ROOT);
            if (name.equals("all")) {
                BenchConfig.ALL_STORES.stream().filter(n -> !chosen.contains(n)).forEach(chosen::add);
            } else if (BenchConfig.ALL_STORES.contains(name) || name.equals("mem")) {
                if (!chosen.contains(name)) {
                    chosen.add(name);
                }
            } else {
                throw new CommandLine.ParameterException(spec.commandLine(), "unknown store '" + s
                        + "'; expected all, redis, zookeeper, mariadb, postgresql or mem");
            }
        }
        requireAtLeast("--runs", runs, 1);
        requireAtLeast("--threads", threads, 2);
        requireAtLeast("--clients", clients, 2);
        if (threads < clients) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--threads (" + threads + ") must be at least --clients (" + clients + ")");
        }
        Map<String, String> uris = new LinkedHashMap<>(BenchConfig.DEFAULT_DISTLOCK_URIS);
        distlockUris.forEach((store, uri) -> {
            if (!uris.containsKey(store)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--distlock-uri names unknown store '"
                        + store + "'");
            }
            uris.put(store, uri);
        });
        Map<String, HostPort> servers = Map.of("redis", HostPort.parse(redis), "mariadb", HostPort.parse(mariadb),
                "postgresql", HostPort.parse(postgresql));
        Path output = out != null ? out
                : (Files.isDirectory(Path.of("lock-bench")) ? Path.of("lock-bench") : Path.of("."));
        String command = command(originalArgs);
        return new BenchConfig(chosen, StoreUri.parseDuration(warmup),
                positive("--duration", StoreUri.parseDuration(duration)), runs,
                threads, clients, StoreUri.parseDuration(settle), held,
                positive("--held-lease-time", StoreUri.parseDuration(heldLeaseTime)),
                roundTripPairs, servers, uris, output, !noProfile, command, chosenScenarios());
    }

    /**
     * The ids {@code --scenarios} names, each checked against the harness's scenarios at this run's --threads and
     * --clients (the sized ones carry them in their ids); empty for all.
     */
    private List<String> chosenScenarios() {
        List<String> known = new BenchRunner(new BenchConfig(List.of(), Duration.ZERO, Duration.ofSeconds(1), 1,
                threads, clients, Duration.ZERO, 0, Duration.ofSeconds(1), 0, Map.of(), Map.of(), Path.of("."), false,
                ""), log)
                .allScenarios().stream().map(io.distlock.bench.core.Scenario::id).toList();
        List<String> chosen = new ArrayList<>();
        for (String s : scenarioIds) {
            String id = s.strip();
            if (!known.contains(id)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "unknown scenario '" + s
                        + "'; expected any of " + String.join(", ", known));
            }
            chosen.add(id);
        }
        return chosen;
    }

    private ScaleConfig scaleConfig() {
        requireAtLeast("--cost-runs", costRuns, 0);
        List<Integer> names = counts("--names-once", namesOnce, 0).stream().filter(n -> n > 0).toList();
        return new ScaleConfig(costRuns, positive("--cost-duration", StoreUri.parseDuration(costDuration)),
                delays("--cost-delay", costDelays), delays("--delay", delays), counts("--waiters", waiters, 1),
                positive("--waiters-duration", StoreUri.parseDuration(waitersDuration)),
                StoreUri.parseDuration(waitersHold), names, StoreUri.parseDuration(namesGrace),
                counts("--held-curve", heldCurve, 8));
    }

    private List<Duration> delays(String option, List<String> values) {
        List<Duration> out = new ArrayList<>();
        for (String d : values) {
            if (!d.isBlank() && !d.strip().equals("none")) {
                Duration parsed = Durations.parseFine(d.strip());
                if (parsed.isNegative() || parsed.isZero()) {
                    throw new CommandLine.ParameterException(spec.commandLine(), option + " must be positive, got "
                            + d);
                }
                out.add(parsed);
            }
        }
        return out;
    }

    private List<Integer> counts(String option, List<String> values, int min) {
        List<Integer> out = new ArrayList<>();
        for (String v : values) {
            if (v.isBlank() || v.strip().equals("none")) {
                continue;
            }
            int n;
            try {
                n = Integer.parseInt(v.strip().replace("_", ""));
            } catch (NumberFormatException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), option + " takes whole numbers, got '"
                        + v + "'");
            }
            requireAtLeast(option, n, min);
            out.add(n);
        }
        return out;
    }

    /**
     * The command line as the report shows it: {@code ./distlock bench ...} when the launcher started it (it sets
     * {@value #LAUNCHER_PROPERTY}), else the Maven form.
     */
    static String command(String[] args) {
        String launcher = System.getProperty(LAUNCHER_PROPERTY);
        String joined = String.join(" ", args);
        if (launcher != null && !launcher.isBlank()) {
            return (launcher.strip() + " " + joined).strip();
        }
        return "./mvnw -q -pl lock-bench exec:java -Dexec.args=\"" + joined + "\"";
    }

    /** System property the {@code ./distlock} launcher sets to how it was called ({@code ./distlock bench}). */
    static final String LAUNCHER_PROPERTY = "distlock.bench.launcher";

    private void requireAtLeast(String option, int value, int min) {
        if (value < min) {
            throw new CommandLine.ParameterException(spec.commandLine(), option + " must be at least " + min
                    + ", got " + value);
        }
    }

    private Duration positive(String option, Duration d) {
        if (d.isZero() || d.isNegative()) {
            throw new CommandLine.ParameterException(spec.commandLine(), option + " must be positive, got " + d);
        }
        return d;
    }

    private static String settings(BenchConfig c) {
        return String.format(Locale.ROOT, "%d runs of %s after a %s warm-up, %d threads, %d clients contended, "
                        + "hand-off settle %s, %,d held leases with lease time %s, %d pairs for round trips",
                c.runs(), Durations.format(c.duration()), Durations.format(c.warmup()), c.threads(), c.clients(),
                Durations.format(c.settle()), c.heldLeases(), Durations.format(c.heldLeaseTime()),
                c.pairsForRoundTrips())
                + (c.scenarioIds().isEmpty() ? "" : "; scenarios " + String.join(", ", c.scenarioIds()) + " only");
    }

    /** The sizes of the counted, at-round-trip-time and growth phases, as the report states them. */
    static String scaleSettings(ScaleConfig s) {
        return String.format(Locale.ROOT, "counted costs %d runs of %s each (again at round trip %s); scenarios at "
                        + "round trip %s; waiters %s clients, %s each, holding the lock %s; names used once %s (issue #33's full size: "
                        + "1,000,000); held leases %s (full size: 100,000)",
                s.costRuns(), Durations.format(s.costDuration()), rtts(s.costDelays()), rtts(s.delays()),
                s.waiters().isEmpty() ? "none" : s.waiters().stream().map(String::valueOf)
                        .collect(java.util.stream.Collectors.joining(", ")), Durations.format(s.waitersDuration()),
                Durations.format(s.waitersHold()), sizes(s.namesOnce()), sizes(s.heldCurve()));
    }

    private static String rtts(List<Duration> delays) {
        return delays.isEmpty() ? "none" : delays.stream().map(ScaleRunner::rttLabel)
                .collect(java.util.stream.Collectors.joining(", "));
    }

    private static String sizes(List<Integer> sizes) {
        return sizes.isEmpty() ? "none" : sizes.stream().map(n -> String.format(Locale.ROOT, "%,d", n))
                .collect(java.util.stream.Collectors.joining(", "));
    }

    private static StoreBench open(String store, BenchConfig config) throws Exception {
        String uri = config.distlockUris().get(store);
        return switch (store) {
            case "redis" -> new RedisBench(config.servers().get("redis"), uri);
            case "zookeeper" -> new ZooKeeperBench(uri);
            case "mariadb" -> new SqlBench(CompetitorSql.MARIADB, config.servers().get("mariadb"), uri);
            case "postgresql" -> new SqlBench(CompetitorSql.POSTGRESQL, config.servers().get("postgresql"), uri);
            case "mem" -> new MemBench(uri);
            default -> throw new IllegalArgumentException("unknown store " + store);
        };
    }
}
