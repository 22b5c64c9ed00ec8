package io.distlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code distlock explore}: listing and bad names (the runs themselves are lock-chaos's ExploreSampleTest). */
class ExploreCommandTest {

    @Test
    void listNamesEveryStoreScenarioAndFault() {
        CliRun run = CliRun.of("explore", "--list");
        assertThat(run.exitCode()).as(run.all()).isEqualTo(ExitCodes.OK);
        assertThat(run.out()).contains("redis", "postgresql", "zookeeper", "lock", "semaphore", "leadership",
                "request-lost", "reply-lost", "late-request", "late-reply", "cut-before", "cut-after", "server-pause",
                "server-restart");
    }

    @Test
    void anUnknownStoreIsAUsageErrorNamingIt() {
        CliRun run = CliRun.of("explore", "--store", "cassandra");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("no store 'cassandra'");
    }

    @Test
    void aMalformedRunNameIsAUsageError() {
        CliRun run = CliRun.of("explore", "--run", "redis/lock/seven/reply-lost");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("is not a number");
    }
}
