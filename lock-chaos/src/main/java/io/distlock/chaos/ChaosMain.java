package io.distlock.chaos;

import java.io.IOException;
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

/**
 * The fault suite as a command: {@code ./mvnw -q -pl lock-chaos exec:java -Dexec.args="--store all --scenario all"}.
 * Prints progress, writes {@code chaos-report.md}, exits 1 if any run misses its bars.
 */
public final class ChaosMain {

    private ChaosMain() {
    }

    /** Every store the suite knows, by the name used on the command line. */
    static Map<String, ChaosSuite.StoreKind> stores() {
        Map<String, ChaosSuite.StoreKind> stores = new LinkedHashMap<>();
        stores.put("redis", new ChaosSuite.StoreKind("redis", () -> new RedisTarget(false),
                List.of(Scenario.SERVER_RESTART)));
        stores.put("redis-guard", new ChaosSuite.StoreKind("redis (restartGuard)", () -> new RedisTarget(true),
                List.of()));
        stores.put("zookeeper", new ChaosSuite.StoreKind("zookeeper", ZooKeeperTarget::new, List.of()));
        stores.put("zookeeper-ensemble", new ChaosSuite.StoreKind("zookeeper (3-node ensemble)",
                ZooKeeperEnsembleTarget::new, List.of()));
        stores.put("redlock", new ChaosSuite.StoreKind("redlock (5 masters)", RedlockTarget::new, List.of()));
        stores.put("mariadb", new ChaosSuite.StoreKind("mariadb", MariaDbTarget::new, List.of()));
        stores.put("postgresql", new ChaosSuite.StoreKind("postgresql", PostgresTarget::new, List.of()));
        return stores;
    }

    /** Entry point. */
    public static void main(String[] args) throws IOException {
        Map<String, String> options = parse(args);
        Map<String, ChaosSuite.StoreKind> known = stores();
        List<ChaosSuite.StoreKind> stores = new ArrayList<>();
        for (String name : list(options.getOrDefault("store", "all"), known.keySet())) {
            ChaosSuite.StoreKind kind = known.get(name);
            if (kind == null) {
                usage("unknown store '" + name + "'; known: " + known.keySet());
            }
            stores.add(kind);
        }
        List<Scenario> scenarios = new ArrayList<>();
        List<String> scenarioNames = Arrays.stream(Scenario.values()).map(ChaosMain::cliName).toList();
        for (String name : list(options.getOrDefault("scenario", "all"), scenarioNames)) {
            if (!scenarioNames.contains(name)) {
                usage("unknown scenario '" + name + "'; known: " + scenarioNames);
            }
            scenarios.add(Scenario.values()[scenarioNames.indexOf(name)]);
        }
        int rounds = Integer.parseInt(options.getOrDefault("rounds", "2"));
        int workers = Integer.parseInt(options.getOrDefault("workers", "3"));
        Path report = Path.of(options.getOrDefault("report", "chaos-report.md"));
        long start = System.nanoTime();
        List<ChaosResult> results = new ChaosSuite(workers, rounds, Duration.ofSeconds(2))
                .run(stores, scenarios, System.out);
        String header = header(args, workers, rounds, Duration.ofNanos(System.nanoTime() - start));
        Files.writeString(report, ChaosReport.markdown(results, header) + Definitions.TEXT, StandardCharsets.UTF_8);
        System.out.println("chaos: wrote " + report.toAbsolutePath());
        boolean allMet = results.stream().allMatch(r -> r.meetsBars() || r.unsafeByDesign());
        System.exit(allMet ? 0 : 1);
    }

    static String cliName(Scenario s) {
        return s.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static List<String> list(String value, java.util.Collection<String> all) {
        return value.equals("all") ? new ArrayList<>(all) : Arrays.asList(value.split(","));
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                usage("bad argument '" + args[i] + "'");
            }
            options.put(args[i].substring(2), args[++i]);
        }
        return options;
    }

    private static void usage(String problem) {
        System.err.println("chaos: " + problem);
        System.err.println("usage: ChaosMain [--store all|redis,redis-guard,zookeeper,zookeeper-ensemble,redlock,"
                + "mariadb,postgresql] [--scenario all|client-pause,client-crash,server-restart,server-pause,"
                + "network-freeze-short,network-freeze-long,script-flush,redlock-minority-down,redlock-majority-down,"
                + "network-drop] [--rounds N] [--workers N] [--report FILE]");
        System.exit(2);
    }

    private static String header(String[] args, int workers, int rounds, Duration took) {
        Runtime rt = Runtime.getRuntime();
        return "# distlock fault-injection report\n\n"
                + "Produced by `./mvnw -q -pl lock-chaos exec:java -Dexec.args=\"" + String.join(" ", args) + "\"` on "
                + Instant.now() + " in " + took.toSeconds() + " s.\n\n"
                + "Machine: " + rt.availableProcessors() + " cores, " + ManagementFactory.getOperatingSystemMXBean()
                .getName() + " " + System.getProperty("os.version") + ", Java " + Runtime.version() + ". "
                + workers + " worker JVMs per run, " + rounds + " faults per run, every server started by the run "
                + "on a free port on loopback (MariaDB and Redis as real processes, ZooKeeper in-process).\n";
    }
}
