package io.distlock.cli.demo;

import io.distlock.LeaseModel;
import io.distlock.LockStore;
import io.distlock.cli.Durations;
import io.distlock.cli.ExitCodes;
import io.distlock.cli.Logging;
import io.distlock.cli.StoreUris;
import io.distlock.spi.StoreUri;
import io.distlock.tck.fixture.ZooKeeperServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code distlock demo}: shows, with separate processes sharing a real store, the race a distributed lock prevents
 * (points redemption, flash sale), a scheduled job run once per tick instead of once per service, why fencing
 * tokens matter (a frozen holder), and a semaphore keeping every service together within an API's limit of calls
 * at once. Without {@code --store} it starts
 * an embedded ZooKeeper server, so it runs on a fresh clone with nothing installed.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Show the race without a lock and the correct result with it, in separate processes.",
            "Without --store an embedded ZooKeeper server is started (a JVM of its own)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every run with the lock was correct", "1:a run with the lock was wrong, or the demo broke",
            "2:usage error", "3:store unavailable"})
public final class DemoCommand implements Callable<Integer> {

    /** Which scenarios {@code --scenario} can pick. */
    public enum Choice { points, flash_sale, fencing, scheduled_job, rate_limit, all }

    /**
     * The session timeout the demo's URI asks of its embedded ZooKeeper: short, so a frozen holder loses its lock
     * quickly, yet long enough that the healthy services keep their sessions on a loaded machine.
     */
    static final Duration EMBEDDED_SESSION_TIMEOUT = Duration.ofSeconds(4);

    /** How long the shutdown hook (Ctrl-C) waits for the run's names to be deleted from the store. */
    static final Duration CLEANUP_BOUND = Duration.ofSeconds(10);

    @Spec
    CommandSpec spec;

    @Option(names = "--store", paramLabel = "URI",
            description = "Store the services share, e.g. redis://127.0.0.1:6379 (default: embedded ZooKeeper).")
    String storeUri;

    @Option(names = "--processes", paramLabel = "N",
            description = "Services contending in the points, flash-sale, scheduled-job and rate-limit scenarios, "
                    + "2-10 (default: 2 for points, 4 for the others).")
    Integer processes;

    @Option(names = "--scenario", paramLabel = "NAME", defaultValue = "all",
            converter = ChoiceConverter.class,
            description = "points, flash-sale, fencing, scheduled-job, rate-limit or all (default: ${DEFAULT-VALUE}).")
    Choice scenario;

    @Override
    public Integer call() {
        if (processes != null && (processes < 2 || processes > 10)) {
            throw new ParameterException(spec.commandLine(), "--processes must be between 2 and 10, got " + processes);
        }
        if (storeUri != null) {
            validateStore();
        }
        Logging.hideDistlockWarnings();
        PrintWriter out = spec.commandLine().getOut();
        long start = System.nanoTime();
        ZooKeeperServer embedded = null;
        AtomicReference<DemoContext> created = new AtomicReference<>();
        AtomicBoolean namesDeleted = new AtomicBoolean();
        Path dir = createTempDir();
        ServiceGroup services = new ServiceGroup();
        Thread cleanup = new Thread(() -> {
            services.kill(); // on Ctrl-C or kill: leave no service behind, not even a frozen one
            deleteNamesWithin(created.get(), namesDeleted, CLEANUP_BOUND);
            deleteQuietly(dir);
        }, "distlock-demo-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            String uri = storeUri;
            if (uri == null) {
                out.print("No --store given: starting ZooKeeper ... ");
                out.flush();
                embedded = ZooKeeperServer.start();
                uri = embedded.storeUri(EMBEDDED_SESSION_TIMEOUT, EMBEDDED_SESSION_TIMEOUT);
                out.println("embedded ZooKeeper on 127.0.0.1:" + embedded.port()
                        + " (its own JVM, reached over TCP).");
            }
            DemoContext ctx = context(uri, dir, out, services);
            if (embedded == null) {
                created.set(ctx); // an embedded server's data goes with it: nothing to delete there
            }
            Prose.println(out, "", "Store: " + ctx.shownUri() + " (" + describe(ctx) + ")");
            Prose.println(out, "",
                    "Each service is a separate JVM; they share only the lock store and the data (a file "
                    + "for the counters, an SQL table for the fencing records).");
            Map<Scenario, Boolean> results = runScenarios(ctx);
            return summarize(out, results, System.nanoTime() - start);
        } finally {
            services.close();
            deleteNames(created.get(), namesDeleted);
            removeHook(cleanup);
            if (embedded != null) {
                embedded.close();
            }
            deleteQuietly(dir);
        }
    }

    /**
     * Deletes what the store keeps for the run's names (locks, fencing counters, semaphores: every name starts with
     * {@link DemoContext#namePrefix()}, unique to the run) with {@link DemoNameCleanup}, once, so the demo leaves
     * nothing in a shared Redis, ZooKeeper or SQL server. The fencing scenario drops its own SQL tables.
     */
    private static void deleteNames(DemoContext ctx, AtomicBoolean done) {
        if (ctx == null || !done.compareAndSet(false, true)) {
            return;
        }
        try {
            ctx.out().println(DemoNameCleanup.deleteNames(ctx.storeUri(), ctx.namePrefix()));
        } catch (RuntimeException e) {
            ctx.out().println("Could not delete the run's names (" + ctx.namePrefix() + "*) from the store: "
                    + e.getMessage());
        }
        ctx.out().flush();
    }

    /**
     * {@link #deleteNames} from the shutdown hook (Ctrl-C, kill), waiting at most {@code bound} so an unreachable
     * store cannot hold the JVM's exit.
     */
    static void deleteNamesWithin(DemoContext ctx, AtomicBoolean done, Duration bound) {
        Thread deleting = new Thread(() -> deleteNames(ctx, done), "distlock-demo-delete-names");
        deleting.setDaemon(true);
        deleting.start();
        try {
            deleting.join(bound.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down: the hook runs anyway
        }
    }

    private void validateStore() {
        StoreUri parsed = StoreUris.validate(spec.commandLine(), storeUri);
        if (parsed.scheme().equals("mem")) {
            throw new ParameterException(spec.commandLine(),
                    "--store: mem: lives inside one JVM and the demo's services are separate processes; "
                            + "use redis://, zookeeper:// or jdbc: (or no --store for an embedded ZooKeeper)");
        }
    }

    private DemoContext context(String uri, Path dir, PrintWriter out, ServiceGroup services) {
        LeaseModel model;
        Duration sessionTimeout;
        try (LockStore probe = StoreUris.open(spec.commandLine(), uri)) {
            model = probe.leaseModel();
            sessionTimeout = probe.sessionTimeout().orElse(null);
        }
        String runId = UUID.randomUUID().toString().substring(0, 8);
        return new DemoContext(uri, dir, out, runId, model, sessionTimeout, processes == null ? 0 : processes,
                services);
    }

    private Map<Scenario, Boolean> runScenarios(DemoContext ctx) {
        List<Scenario> chosen = new ArrayList<>();
        if (scenario == Choice.points || scenario == Choice.all) {
            chosen.add(new PointsScenario());
        }
        if (scenario == Choice.flash_sale || scenario == Choice.all) {
            chosen.add(new FlashSaleScenario());
        }
        if (scenario == Choice.fencing || scenario == Choice.all) {
            chosen.add(new FencingScenario());
        }
        if (scenario == Choice.scheduled_job || scenario == Choice.all) {
            chosen.add(new ScheduledJobScenario());
        }
        if (scenario == Choice.rate_limit || scenario == Choice.all) {
            chosen.add(new RateLimitScenario());
        }
        ctx.services().ensure(ctx, chosen.stream().mapToInt(sc -> sc.services(ctx)).max().orElse(2));
        Map<Scenario, Boolean> results = new LinkedHashMap<>();
        int i = 0;
        for (Scenario s : chosen) {
            i++;
            String heading = "== " + i + "/" + chosen.size() + "  " + s.title() + " ";
            ctx.out().println();
            ctx.out().println(heading + "=".repeat(Math.max(3, 100 - heading.length())));
            ctx.out().flush();
            results.put(s, s.run(ctx));
        }
        return results;
    }

    private static int summarize(PrintWriter out, Map<Scenario, Boolean> results, long nanos) {
        boolean allCorrect = results.values().stream().allMatch(Boolean::booleanValue);
        Prose.println(out, "", "Summary (" + Durations.showNanos(nanos) + "): " + (allCorrect
                ? "with distlock every run was correct: "
                        + String.join(", ", results.keySet().stream().map(Scenario::promise).toList()) + "."
                : "a run WITH the lock was wrong: " + results.entrySet().stream().filter(e -> !e.getValue())
                        .map(e -> e.getKey().key()).toList() + ". Please report this."));
        out.flush();
        return allCorrect ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
    }

    private static String describe(DemoContext ctx) {
        return ctx.leaseModel() == LeaseModel.SESSION
                ? "leases bound to the client session, timeout " + Durations.show(ctx.sessionTimeout())
                : "time-bound leases";
    }

    private static Path createTempDir() {
        try {
            return Files.createTempDirectory("distlock-demo-");
        } catch (IOException e) {
            throw new UncheckedIOException("could not create a temporary folder for the demo", e);
        }
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a leftover temp folder is harmless
        }
    }
}
