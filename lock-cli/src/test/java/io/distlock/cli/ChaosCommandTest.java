package io.distlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code distlock chaos}: listing, bad names, and one short run end to end with its progress and report. */
class ChaosCommandTest {

    @Test
    void listNamesEveryStoreAndScenario() {
        CliRun run = CliRun.of("chaos", "--list");
        assertThat(run.exitCode()).as(run.all()).isEqualTo(ExitCodes.OK);
        assertThat(run.out()).contains("redis-rdb-guard", "redis-aof-everysec", "mariadb", "postgresql",
                "row-delete", "server-restart", "leadership", "semaphore", "sql-fence-postgresql",
                "sql-fence-mariadb");
    }

    @Test
    void anUnknownWorkloadIsAUsageErrorNamingIt() {
        CliRun run = CliRun.of("chaos", "--store", "redis", "--workload", "queue");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("unknown workload 'queue'");
    }

    @Test
    void anUnknownStoreIsAUsageErrorNamingIt() {
        CliRun run = CliRun.of("chaos", "--store", "cassandra");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("unknown store 'cassandra'");
    }

    @Test
    void tooFewFaultsIsAUsageError() {
        CliRun run = CliRun.of("chaos", "--store", "redis", "--faults", "0");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("at least 1 fault");
    }

    @Test
    void aShortRunPrintsProgressAndTotalsAndWritesTheReport(@TempDir Path dir) throws Exception {
        Path report = dir.resolve("report.md");
        CliRun run = CliRun.of("chaos", "--store", "redis-aof-always-guard", "--scenario", "server-restart",
                "--faults", "1", "--report", report.toString());
        assertThat(run.exitCode()).as(run.all()).isEqualTo(ExitCodes.OK);
        assertThat(run.out()).contains("redis (AOF always, restartGuard)", "server crash and restart", "met",
                "1 runs, 1 faults injected", "wrote");
        assertThat(Files.readString(report))
                .contains("fencing tokens re-issued", "| redis (AOF always, restartGuard) |");
    }
}
