package io.distlock.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code distlock bench} as this jar sees it: only a pointer. The benchmark compares distlock with Redisson, Curator,
 * Spring Integration and ShedLock, so it lives in lock-bench's own jar and the {@code ./distlock} launcher runs that
 * jar for {@code bench}; this jar stays free of those libraries. Run directly ({@code java -jar distlock.jar bench})
 * it says so instead of failing as an unknown command.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Side-by-side benchmark against Redisson, Curator, Spring Integration, ShedLock and the "
                + "raw store (counted round trips and bytes, a real round-trip time, growth curves; writes "
                + "lock-bench/bench-report.md). Run it through the launcher: "
                + "./distlock bench [--quick] [--store redis,...]"
                + "; ./distlock bench --help lists its options.")
public final class BenchCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Unmatched
    String[] ignored;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "the benchmark is not inside this jar (it would carry "
                + "Redisson, Curator, Spring and ShedLock): run it as ./distlock bench from the repository root, which "
                + "builds and runs lock-bench/target/distlock-bench.jar");
    }
}
