package io.distlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The harness works end to end on the in-memory store: every scenario runs, and the report and chart are written
 * with a row per scenario; the semaphore contender runs only the semaphore scenarios, the lock only the lock ones. A
 * smoke test only: it asserts nothing about speed.
 */
class BenchMainSmokeTest {

    @TempDir
    Path out;

    @Test
    void memRunWritesReportAndChartWithEveryScenario() throws Exception {
        String[] args = {"--store", "mem", "--duration", "300ms", "--warmup", "100ms", "--runs", "1",
            "--held", "0", "--round-trip-pairs", "0", "--no-profile", "--out", out.toString()};
        ByteArrayOutputStream console = new ByteArrayOutputStream();

        int exit = new CommandLine(new BenchMain(args, new PrintStream(console, true, StandardCharsets.UTF_8)))
                .execute(args);

        assertThat(exit).as("exit code; console:%n%s", console).isZero();
        String report = Files.readString(out.resolve("bench-report.md"));
        assertThat(report)
                .contains("# distlock benchmark report", "**Machine:**", "**Command:**", "## mem")
                .contains("| distlock | uncontended-1 |", "| distlock | uncontended-8 |",
                        "| distlock | contended-8x2 |", "| distlock | handoff |")
                .contains("| distlock Semaphore | semaphore-uncontended-1 |",
                        "| distlock Semaphore | semaphore-uncontended-8 |",
                        "| distlock Semaphore | semaphore-contended-8x2 |")
                .doesNotContain("| distlock Semaphore | uncontended-1 |", "| distlock | semaphore-uncontended-1 |")
                .doesNotContain("failed")
                .contains("alloc B/op");
        assertThat(report.lines().filter(l -> l.startsWith("| distlock | uncontended-1 |")))
                .as("allocation per pair: bench threads + other threads")
                .singleElement().asString().containsPattern("\\| [0-9,]+ \\+ [0-9,]+ \\|");
        String chart = Files.readString(out.resolve("bench-chart.svg"));
        assertThat(chart).startsWith("<?xml").contains("<svg", "uncontended-1 (ops/s)", "handoff p99",
                "semaphore-contended-8x2 (ops/s)").endsWith("</svg>\n");
    }

    @Test
    void scenariosRunsOnlyTheScenariosNamed() throws Exception {
        String[] args = {"--store", "mem", "--duration", "200ms", "--warmup", "0s", "--runs", "1", "--held", "0",
            "--round-trip-pairs", "0", "--no-profile", "--scenarios", "handoff", "--out", out.toString()};
        ByteArrayOutputStream console = new ByteArrayOutputStream();

        int exit = new CommandLine(new BenchMain(args, new PrintStream(console, true, StandardCharsets.UTF_8)))
                .execute(args);

        assertThat(exit).as("exit code; console:%n%s", console).isZero();
        String report = Files.readString(out.resolve("bench-report.md"));
        assertThat(report).contains("| distlock | handoff |", "scenarios handoff only")
                .doesNotContain("| distlock | uncontended-1 |", "| distlock Semaphore | semaphore-uncontended-1 |");
    }

    /**
     * The ids of the sized scenarios follow --threads and --clients (the README's {@code contended-8x2} at the
     * default 8 threads and 2 clients): one of this run's sizes is taken, one of another size is refused, never
     * taken and then matched by nothing.
     */
    @Test
    void scenariosKnowTheSizesOfThisRun() throws Exception {
        String[] args = {"--store", "mem", "--duration", "200ms", "--warmup", "0s", "--runs", "1", "--held", "0",
            "--round-trip-pairs", "0", "--no-profile", "--threads", "4", "--scenarios", "contended-4x2,uncontended-4",
            "--out", out.toString()};
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        CommandLine cmd = new CommandLine(new BenchMain(args, new PrintStream(console, true, StandardCharsets.UTF_8)));
        cmd.setErr(new java.io.PrintWriter(console, true, StandardCharsets.UTF_8));

        int exit = cmd.execute(args);

        assertThat(exit).as("exit code; console:%n%s", console).isZero();
        assertThat(Files.readString(out.resolve("bench-report.md")))
                .contains("| distlock | contended-4x2 |", "| distlock | uncontended-4 |")
                .doesNotContain("| distlock | handoff |");

        String[] other = {"--store", "mem", "--threads", "4", "--scenarios", "uncontended-2"};
        ByteArrayOutputStream refused = new ByteArrayOutputStream();
        CommandLine second = new CommandLine(new BenchMain(other, new PrintStream(refused, true,
                StandardCharsets.UTF_8)));
        second.setErr(new java.io.PrintWriter(refused, true, StandardCharsets.UTF_8));
        assertThat(second.execute(other)).as("a size this run does not have").isNotZero();
        assertThat(refused.toString(StandardCharsets.UTF_8)).contains("unknown scenario 'uncontended-2'",
                "uncontended-4");
    }

    @Test
    void unknownScenarioIsRejectedWithItsName() {
        String[] args = {"--store", "mem", "--scenarios", "handof"};
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        CommandLine cmd = new CommandLine(new BenchMain(args, new PrintStream(console, true, StandardCharsets.UTF_8)));
        cmd.setErr(new java.io.PrintWriter(console, true, StandardCharsets.UTF_8));

        int exit = cmd.execute(args);

        assertThat(exit).isNotZero();
        assertThat(console.toString(StandardCharsets.UTF_8)).contains("unknown scenario 'handof'", "handoff");
    }

    @Test
    void unknownStoreIsRejectedWithItsName() {
        String[] args = {"--store", "cassandra"};
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        CommandLine cmd = new CommandLine(new BenchMain(args, new PrintStream(console, true, StandardCharsets.UTF_8)));
        cmd.setErr(new java.io.PrintWriter(console, true, StandardCharsets.UTF_8));

        int exit = cmd.execute(args);

        assertThat(exit).isNotZero();
        assertThat(console.toString(StandardCharsets.UTF_8)).contains("unknown store 'cassandra'");
    }
}
