package io.distlock.cli.explore;

import io.distlock.chaos.explore.ExploreMain;
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
 * {@code distlock explore}: lock-chaos's fault-point explorer. On a server of its own per store, it runs small
 * scenarios once to count their round trips, then once per (step, fault) with that fault injected at that round trip,
 * checks every history, prints one line per run and writes the Markdown report. Exits 1 if any run broke a bar.
 */
@Command(name = "explore", mixinStandardHelpOptions = true,
        description = {"Explore faults at every round trip: a small scenario (lock with a hand-over, semaphore of 2, "
                + "leadership) runs once per step and fault (request lost, reply lost, late reply, connection cut "
                + "before or after the server got it, server paused past the lease, server restarted).",
            "A run is named store/scenario/step/fault and replays with --run NAME.",
            "Use --list for the names."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every run met every bar", "1:a run broke a bar", "2:usage error"})
public final class ExploreCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--store", split = ",", paramLabel = "NAME", defaultValue = "redis,postgresql,zookeeper",
            description = "Stores, comma-separated, or all (default: ${DEFAULT-VALUE}).")
    List<String> stores = new ArrayList<>();

    @Option(names = "--scenario", split = ",", paramLabel = "NAME", defaultValue = "all",
            description = "Scenarios, comma-separated, or all (default).")
    List<String> scenarios = new ArrayList<>();

    @Option(names = "--fault", split = ",", paramLabel = "NAME", defaultValue = "all",
            description = "Faults, comma-separated, or all (default).")
    List<String> faults = new ArrayList<>();

    @Option(names = "--steps", split = ",", paramLabel = "N",
            description = "Only these steps (round trips, from 1), comma-separated; default: every step.")
    List<Integer> steps = new ArrayList<>();

    @Option(names = "--stride", paramLabel = "N", defaultValue = "1",
            description = "Every N-th step only (default: ${DEFAULT-VALUE}, every step).")
    int stride;

    @Option(names = "--report", paramLabel = "FILE", description = "Where to write the Markdown report.")
    Path report;

    @Option(names = "--run", paramLabel = "NAME", description = "Replay one run, e.g. redis/lock/7/reply-lost.")
    String run;

    @Option(names = "--list", description = "List the stores, scenarios and faults, and exit.")
    boolean list;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        List<String> args = new ArrayList<>();
        if (list) {
            args.add("--list");
        } else if (run != null) {
            args.addAll(List.of("--run", run));
        } else {
            args.addAll(List.of("--store", String.join(",", stores), "--scenario", String.join(",", scenarios),
                    "--fault", String.join(",", faults), "--stride", Integer.toString(stride)));
            if (!steps.isEmpty()) {
                args.addAll(List.of("--steps", String.join(",", steps.stream().map(String::valueOf).toList())));
            }
            if (report != null) {
                args.addAll(List.of("--report", report.toString()));
            }
        }
        if (stride < 1) {
            throw new ParameterException(spec.commandLine(), "--stride must be at least 1");
        }
        try {
            return ExploreMain.run(args.toArray(String[]::new), out);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}
