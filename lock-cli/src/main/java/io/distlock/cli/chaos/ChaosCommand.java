package io.distlock.cli.chaos;

import io.distlock.chaos.ChaosMain;
import io.distlock.cli.ExitCodes;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code distlock chaos}: the fault suite of lock-chaos. Starts its own servers on free loopback ports, runs worker
 * JVMs against them while it injects faults, prints one line per run as it finishes, then the totals, and writes the
 * Markdown report. Exits 1 if any run missed its bars.
 */
@Command(name = "chaos", mixinStandardHelpOptions = true,
        description = {"Run the fault suite: worker JVMs contend for one lock and update a fenced register while "
                + "clients and servers are paused, killed, restarted, partitioned, and lock rows deleted.",
            "Every server is started by the run on a free port (redis-server, mariadbd, postgres as real "
                    + "processes, H2 and ZooKeeper in JVMs of their own); nothing shared is touched.",
            "Use --list for the store and scenario names."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every run met its bars (documented unsafe-by-design overlaps included)",
            "1:a run missed its bars (silent overlap, stale write, lost update, re-issued token, or run failed)",
            "2:usage error"})
public final class ChaosCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--store", split = ",", paramLabel = "NAME", defaultValue = "all",
            description = "Stores to run, comma-separated, or all (default). Use --list to see them.")
    List<String> stores = new ArrayList<>();

    @Option(names = "--scenario", split = ",", paramLabel = "NAME", defaultValue = "all",
            description = "Scenarios to run, comma-separated, or all (default). Use --list to see them.")
    List<String> scenarios = new ArrayList<>();

    @Option(names = "--workload", split = ",", paramLabel = "NAME", defaultValue = "lock",
            description = {"What the workers do, comma-separated (default: lock): lock (acquire, fenced read and "
                    + "write, release), lock-threads (the same with 2 threads in each worker JVM, so releases "
                    + "hand the lock over inside a client), leadership (campaign; the leader writes with its term), "
                    + "semaphore (permits of a semaphore of 2), sql-fence-postgresql or sql-fence-mariadb "
                    + "(the lock protecting a SQL "
                    + "counter row through SqlFence). Each has its own table in the report."})
    List<String> workloads = new ArrayList<>();

    @Option(names = "--faults", paramLabel = "N", defaultValue = "" + ChaosMain.DEFAULT_FAULTS,
            description = "Faults per store and scenario (default: ${DEFAULT-VALUE}).")
    int faults;

    @Option(names = "--workers", paramLabel = "N", defaultValue = "" + ChaosMain.DEFAULT_WORKERS,
            description = "Worker JVMs per run (default: ${DEFAULT-VALUE}).")
    int workers;

    @Option(names = "--report", paramLabel = "FILE", defaultValue = "chaos-report.md",
            description = "Where to write the Markdown report (default: ${DEFAULT-VALUE}).")
    Path report;

    @Option(names = "--list", description = "List the stores and scenarios, and exit.")
    boolean list;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (list) {
            out.println("stores:    " + String.join(", ", ChaosMain.storeNames()));
            out.println("scenarios: " + String.join(", ", ChaosMain.scenarioNames()));
            out.println("workloads: " + String.join(", ", ChaosMain.workloadNames()));
            return ExitCodes.OK;
        }
        String commandLine = "distlock chaos --store " + String.join(",", stores) + " --scenario "
                + String.join(",", scenarios) + " --workload " + String.join(",", workloads) + " --faults " + faults
                + " --workers " + workers + " --report " + report;
        try {
            return ChaosMain.run(stores, scenarios, workloads, faults, workers, report, commandLine, out);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}
