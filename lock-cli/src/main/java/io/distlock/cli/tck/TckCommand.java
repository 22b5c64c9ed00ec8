package io.distlock.cli.tck;

import io.distlock.Features;
import io.distlock.LeaseModel;
import io.distlock.LockStore;
import io.distlock.cli.Durations;
import io.distlock.cli.ExitCodes;
import io.distlock.cli.Logging;
import io.distlock.cli.StoreUris;
import io.distlock.cli.TextTable;
import io.distlock.spi.StoreUri;
import io.distlock.tck.StoreCapabilities;
import io.distlock.tck.StoreOutage;
import io.distlock.tck.fixture.ZooKeeperServer;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code distlock tck}: runs the compatibility kit against any store by URI and prints a per-rule
 * pass/skip/fail report. Exits 1 if any rule failed (or none ran).
 */
@Command(name = "tck", mixinStandardHelpOptions = true,
        description = {"Run the distlock compatibility kit (lock-tck/SPEC.md) against a store.",
            "Each store is checked as it declares itself: session-bound (ZooKeeper, with the URI's "
                    + "sessionTimeout) or time-bound; mem: as single-JVM."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every rule that ran passed", "1:a rule failed, or no rule ran", "2:usage error",
            "3:store unavailable"})
public final class TckCommand implements Callable<Integer> {

    /** The session timeout of the embedded ZooKeeper run: short so the session rules finish quickly. */
    static final Duration EMBEDDED_SESSION_TIMEOUT = Duration.ofSeconds(4);

    @Spec
    CommandSpec spec;

    @Option(names = "--store", paramLabel = "URI",
            description = {"Store to check, e.g. redis://127.0.0.1:6379, mem:NAME,",
                "zookeeper://127.0.0.1:2181?sessionTimeout=4s,", "jdbc:mariadb://127.0.0.1:3306/test?user=root.",
                "Default: an embedded ZooKeeper server started for the run (session timeout 4 s), which also lets "
                    + "the outage rule stop and restart it."})
    String storeUri;

    @Option(names = "--rule", paramLabel = "REGEX",
            description = "Run only the rules whose test method matches, e.g. 'rule_6_' or 'Jvms'.")
    String rule;

    @Option(names = "--session-timeout", paramLabel = "DURATION",
            description = "For ZooKeeper: the session timeout to assume instead of the URI's (e.g. 5s).")
    String sessionTimeout;

    @Option(names = "--unreachable-store", paramLabel = "URI",
            description = "A URI of the same kind with no server behind it, for the availability rule "
                    + "(default: the store URI with a closed port, when its host is 127.0.0.1 or localhost).")
    String unreachableUri;

    @Option(names = {"-v", "--verbose"}, description = "Print every rule as it finishes, not only failures.")
    boolean verbose;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (storeUri != null) {
            StoreUris.validate(spec.commandLine(), storeUri);
        }
        Pattern filter = compileFilter();
        Duration timeout = sessionTimeout == null ? null : StoreUri.parseDuration(sessionTimeout);
        if (!verbose) {
            Logging.hideDistlockWarnings();
        }
        if (storeUri != null) {
            return check(out, storeUri, filter, timeout, null, null);
        }
        out.print("No --store given: starting an embedded ZooKeeper server ... ");
        out.flush();
        try (ZooKeeperServer zk = ZooKeeperServer.start()) {
            out.println("embedded ZooKeeper on 127.0.0.1:" + zk.port() + ".");
            // its clients give up on an operation after the URI's connection timeout
            return check(out, zk.storeUri(EMBEDDED_SESSION_TIMEOUT, EMBEDDED_SESSION_TIMEOUT), filter, timeout,
                    zk.outage(), EMBEDDED_SESSION_TIMEOUT);
        }
    }

    private int check(PrintWriter out, String uri, Pattern filter, Duration timeout, StoreOutage outage,
            Duration operationTimeout) {
        StoreCapabilities capabilities;
        Features features;
        try (LockStore probe = StoreUris.open(spec.commandLine(), uri)) { // fail fast (exit 3) if the store is down
            features = probe.features();
            capabilities = capabilities(features, uri, timeout);
        }
        String unreachable = unreachableUri != null ? unreachableUri : StoreUris.unreachableTwin(uri);
        String shown = StoreUri.redact(uri);

        out.println("distlock TCK against " + shown + " (" + describe(features, capabilities) + ")");
        out.flush();
        long start = System.nanoTime();
        TckTarget target = new TckTarget(uri, capabilities, unreachable, outage, operationTimeout);
        List<RuleResult> results = TckRunner.run(target, filter, r -> progress(out, r));
        printReport(out, results, System.nanoTime() - start);

        long failed = count(results, RuleResult.Status.FAILED);
        long passed = count(results, RuleResult.Status.PASSED);
        if (results.isEmpty()) {
            out.println("No rule ran" + (rule == null ? "" : " (none matches --rule " + rule + ")") + ".");
            return ExitCodes.CHECK_FAILED;
        }
        return failed == 0 && passed > 0 ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
    }

    /**
     * What the kit is told of the store at {@code uri} with {@code features} beyond them: {@code
     * sessionTimeoutOverride}, if given, as the session timeout of a session-bound store.
     */
    static StoreCapabilities capabilities(Features features, String uri, Duration sessionTimeoutOverride) {
        StoreCapabilities declared = StoreCapabilities.of(uri);
        return sessionTimeoutOverride != null && features.leaseModel() == LeaseModel.SESSION
                ? declared.withSessionTimeout(sessionTimeoutOverride) : declared;
    }

    private Pattern compileFilter() {
        if (rule == null) {
            return null;
        }
        try {
            return Pattern.compile(rule);
        } catch (PatternSyntaxException e) {
            throw new ParameterException(spec.commandLine(), "--rule: not a regular expression: " + e.getMessage());
        }
    }

    private void progress(PrintWriter out, RuleResult r) {
        if (verbose || r.status() == RuleResult.Status.FAILED) {
            out.printf(Locale.ROOT, "  %-7s %-6s %s%s%n", r.status(), r.rule(), r.title(),
                    r.reason().isEmpty() ? "" : ": " + StoreUri.redact(r.reason()));
        } else {
            out.print(r.status() == RuleResult.Status.PASSED ? "." : "s");
        }
        out.flush();
    }

    private static void printReport(PrintWriter out, List<RuleResult> results, long nanos) {
        out.println();
        out.println();
        TextTable table = new TextTable("RULE", "RESULT", "TIME", "TEST", "NOTE");
        for (RuleResult r : results) {
            table.row(r.rule(), r.status(), r.status() == RuleResult.Status.SKIPPED ? "" : Durations.show(r.duration()),
                    r.method(), note(r));
        }
        if (table.size() > 0) {
            table.print(out, "");
        }
        out.printf(Locale.ROOT, "%ntck: %d passed, %d failed, %d skipped in %s%n",
                count(results, RuleResult.Status.PASSED), count(results, RuleResult.Status.FAILED),
                count(results, RuleResult.Status.SKIPPED), Durations.showNanos(nanos));
    }

    private static long count(List<RuleResult> results, RuleResult.Status status) {
        return results.stream().filter(r -> r.status() == status).count();
    }

    private static String note(RuleResult r) {
        return abbreviate(StoreUri.redact(r.reason().replaceFirst("^Assumption failed: ", "")), 110);
    }

    private static String abbreviate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 3) + "...";
    }

    private static String describe(Features features, StoreCapabilities c) {
        return switch (features.leaseModel()) {
            case SESSION -> "session-bound leases, session timeout " + Durations.show(c.sessionTimeout(features));
            case TIME -> "time-bound leases" + (c.separateJvmClients() ? "" : ", single JVM");
        };
    }
}
