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

/** {@code --quick} sets the sizes it documents, and an option given explicitly keeps its value. */
class QuickPresetTest {

    @TempDir
    Path out;

    @Test
    void theHelpTextStatesThePresetItApplies() {
        assertThat(QuickPreset.DESCRIPTION).isEqualTo(QuickPreset.describe());
    }

    @Test
    void quickRunStatesItsSizesAndExplicitOptionsWin() throws Exception {
        // explicit options keep the mem run short; --quick fills in the rest (held curve, names once, ...),
        // switched off here where they would take minutes, except what the settings line must show
        String[] args = {"--quick", "--store", "mem", "--duration", "200ms", "--warmup", "50ms", "--runs", "1",
            "--cost-runs", "0", "--delay", "none", "--waiters", "none", "--names-once", "0", "--held-curve", "none",
            "--out", out.toString()};
        ByteArrayOutputStream console = new ByteArrayOutputStream();

        int exit = new CommandLine(new BenchMain(args, new PrintStream(console, true, StandardCharsets.UTF_8)))
                .execute(args);

        assertThat(exit).as("exit code; console:%n%s", console).isZero();
        String report = Files.readString(out.resolve("bench-report.md"));
        assertThat(report).contains("1 runs of 200ms after a 50ms warm-up", "0 pairs for round trips",
                "0 held leases", "counted costs 0 runs of 1s each (again at round trip 2 ms)",
                "waiters none clients", "names used once none (issue #33's full size: 1,000,000)");
    }
}
