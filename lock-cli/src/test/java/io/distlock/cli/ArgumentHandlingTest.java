package io.distlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every subcommand's parsing: help, missing and bad arguments, and the exit codes they give. */
class ArgumentHandlingTest {

    @Test
    void noSubcommandIsAUsageErrorListingTheSubcommands() {
        CliRun run = CliRun.of();
        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("a subcommand is required")
                .contains("demo", "tck", "chaos", "inspect", "release");
    }

    @Test
    void benchRunDirectlySaysToUseTheLauncher() {
        CliRun run = CliRun.of("bench", "--quick");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("./distlock bench").contains("lock-bench/target/distlock-bench.jar");
    }

    @Test
    void topLevelHelpListsSubcommandsAndExitCodes() {
        CliRun run = CliRun.of("--help");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(run.out()).contains("demo", "tck", "chaos", "inspect", "release", "store unavailable");
    }

    @ParameterizedTest
    @ValueSource(strings = {"demo", "tck", "chaos", "inspect", "release"})
    void everySubcommandHasHelp(String subcommand) {
        CliRun run = CliRun.of(subcommand, "--help");
        assertThat(run.exitCode()).as(run.all()).isEqualTo(ExitCodes.OK);
        assertThat(run.out()).contains("Usage: distlock " + subcommand).contains("Exit codes:");
    }

    @Test
    void unknownSubcommandIsAUsageError() {
        CliRun run = CliRun.of("lock-everything");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("lock-everything");
    }

    @ParameterizedTest
    @ValueSource(strings = {"inspect", "release"})
    void missingStoreIsAUsageErrorNamingTheOption(String subcommand) {
        CliRun run = CliRun.of(subcommand, "--force", "name");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("Missing required option").contains("--store");
    }

    @ParameterizedTest
    @ValueSource(strings = {"tck", "inspect", "demo"})
    void storeWithoutSchemeIsAUsageError(String subcommand) {
        CliRun run = CliRun.of(subcommand, "--store", "127.0.0.1:6379");
        assertThat(run.exitCode()).as(run.all()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("--store").contains("has no scheme");
    }

    @ParameterizedTest
    @ValueSource(strings = {"tck", "inspect", "demo"})
    void unknownSchemeIsAUsageErrorListingTheKnownOnes(String subcommand) {
        CliRun run = CliRun.of(subcommand, "--store", "etcd://127.0.0.1:2379");
        assertThat(run.exitCode()).as(run.all()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("no distlock store for scheme 'etcd'").contains("mem");
    }

    @Test
    void emptyStoreIsAUsageError() {
        CliRun run = CliRun.of("inspect", "--store", " ");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("must not be empty");
    }

    @ParameterizedTest
    @ValueSource(strings = {"inspect", "tck", "demo"})
    void unreachableStoreExitsThreeWithoutShowingThePassword(String subcommand) {
        int closedPort = io.distlock.tck.fixture.FreePorts.next();
        CliRun run = CliRun.of(subcommand, "--store", "redis://admin:s3cr3t-pw@127.0.0.1:" + closedPort);
        assertThat(run.exitCode()).as(run.all()).isEqualTo(ExitCodes.STORE_UNAVAILABLE);
        assertThat(run.err()).contains("store unavailable").contains("127.0.0.1:" + closedPort);
        assertThat(run.all()).doesNotContain("s3cr3t-pw");
    }

    /**
     * A SQL store that refuses the login (a role that does not exist): exit 3 with one line naming where, as for an
     * unreachable store; it was a LockException with a 30-40 line stack trace and exit 1.
     */
    @Test
    void aStoreThatRefusesTheLoginExitsThreeWithOneLine() {
        String uri = io.distlock.tck.fixture.StoreServers.postgres().replace("user=postgres",
                "user=distlock_no_such_role") + "&password=s3@cr3t-pw&distlock.connectTimeoutMillis=1000";
        CliRun run = CliRun.of("inspect", "--store", uri);
        assertThat(run.exitCode()).as(run.all()).isEqualTo(ExitCodes.STORE_UNAVAILABLE);
        assertThat(run.err().strip().lines()).as(run.err()).hasSize(1).allSatisfy(line -> assertThat(line)
                .contains("store unavailable").contains("distlock_no_such_role").contains("/test?"));
        assertThat(run.all()).doesNotContain("s3@cr3t-pw").doesNotContain("cr3t-pw");
    }

    @Test
    void inspectLimitMustBePositive() {
        CliRun run = CliRun.of("inspect", "--store", "mem:args", "--limit", "0");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("--limit must be at least 1");
    }

    @Test
    void inspectLimitMustBeANumber() {
        CliRun run = CliRun.of("inspect", "--store", "mem:args", "--limit", "many");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("--limit").contains("many");
    }

    @Test
    void releaseWithoutForceIsRefused() {
        CliRun run = CliRun.of("release", "--store", "mem:args", "orders:42");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("add --force");
    }

    @Test
    void releaseWithoutNameIsAUsageError() {
        CliRun run = CliRun.of("release", "--force", "--store", "mem:args");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("Missing required parameter").contains("NAME");
    }

    @Test
    void releaseWithBlankNameIsAUsageError() {
        CliRun run = CliRun.of("release", "--force", "--yes", "--store", "mem:args", "  ");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("NAME must not be blank");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "11", "-3"})
    void demoProcessesOutOfRangeIsAUsageError(String processes) {
        CliRun run = CliRun.of("demo", "--processes", processes, "--store", "redis://127.0.0.1:6379");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("--processes must be between 2 and 10");
    }

    @Test
    void demoUnknownScenarioIsAUsageErrorListingTheChoices() {
        CliRun run = CliRun.of("demo", "--scenario", "bank-run");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("'bank-run' is not a scenario").contains("flash-sale", "fencing", "points");
    }

    @Test
    void demoRefusesTheInMemoryStoreBecauseItsServicesAreSeparateProcesses() {
        CliRun run = CliRun.of("demo", "--store", "mem:");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("separate processes");
    }

    @Test
    void tckRuleFilterMustBeARegularExpression() {
        CliRun run = CliRun.of("tck", "--store", "mem:args", "--rule", "rule_(");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("--rule: not a regular expression");
    }

    @Test
    void tckSessionTimeoutMustBeADuration() {
        CliRun run = CliRun.of("tck", "--store", "mem:args", "--session-timeout", "soon");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("'soon' is not a duration");
    }
}
