package io.distlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What a newcomer types first: {@code distlock help}, a subcommand's help, and a wrong duration. */
class HelpTextTest {

    @Test
    void helpIsACommandNotASuggestionToRelease() {
        CliRun run = CliRun.of("help");
        assertThat(run.exitCode()).as(run.all()).isZero();
        assertThat(run.out()).contains("Usage: distlock").contains("demo").contains("release");
        assertThat(run.all()).doesNotContain("Did you mean");

        CliRun demo = CliRun.of("help", "demo");
        assertThat(demo.out()).as(demo.all()).contains("Usage: distlock demo");
    }

    @Test
    void helpKeepsUrisWholeWithin120Columns() {
        CliRun run = CliRun.of("tck", "--help");
        assertThat(run.out()).contains("zookeeper://127.0.0.1:2181?sessionTimeout=4s")
                .contains("jdbc:mariadb://127.0.0.1:3306/test?user=root");
        assertThat(run.out().lines()).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(120));
    }

    @Test
    void aNegativeDurationIsCalledNegative() {
        CliRun run = CliRun.of("tck", "--store", "mem:", "--session-timeout=-5s");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("'-5s' must not be negative").doesNotContain("is not a duration");
    }
}
