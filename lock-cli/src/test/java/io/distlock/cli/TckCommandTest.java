package io.distlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@code distlock tck} runs the real kit through the JUnit Platform launcher. A selection of rules must pass against
 * the in-memory reference store and against the shared Redis server (including a client in another JVM and the
 * unreachable-store rule, whose URI the command derives) and against the embedded ZooKeeper it starts without
 * {@code --store} (including its outage rules, whose timed wait is bounded by that store's 4 s connection timeout);
 * a filter matching nothing must fail.
 */
class TckCommandTest {

    @Test
    void runsTheSelectedRulesAndReportsEachByNumber() {
        CliRun run = CliRun.of("tck", "--store", "mem:cli-tck", "--rule", "rule_(1_1|6_1|1_2)_");

        assertThat(run.exitCode()).as(run.all()).isEqualTo(ExitCodes.OK);
        assertThat(run.out()).contains("distlock TCK against mem:cli-tck")
                .containsPattern("1\\.1 +PASSED")
                .containsPattern("6\\.1 +PASSED")
                .containsPattern("1\\.2 +SKIPPED .*another JVM")
                .contains("tck: 2 passed, 0 failed, 1 skipped");
    }

    @Test
    void verboseListsEveryRuleAsItFinishes() {
        CliRun run = CliRun.of("tck", "--store", "mem:cli-tck", "--rule", "rule_6_1_", "--verbose");

        assertThat(run.exitCode()).as(run.all()).isEqualTo(ExitCodes.OK);
        assertThat(run.out()).containsPattern("PASSED +6\\.1 +tokens increase across clients");
    }

    @Test
    void checksARealStoreIncludingItsUnreachableTwinAndAnotherJvm() {
        CliRun run = CliRun.of("tck", "--store", "redis://127.0.0.1:6379", "--rule", "rule_(1_3|6_2|14_1)_");

        assertThat(run.exitCode()).as(run.all()).isEqualTo(ExitCodes.OK);
        assertThat(run.out()).contains("(time-bound leases)")
                .containsPattern("1\\.3 +PASSED")
                .containsPattern("6\\.2 +PASSED")
                .containsPattern("14\\.1 +PASSED")
                .contains("tck: 3 passed, 0 failed, 0 skipped");
    }

    @Test
    void withoutAStoreItChecksAnEmbeddedZooKeeperWhoseOutageItControls() {
        CliRun run = CliRun.of("tck", "--rule", "rule_(1_2|14_2|14_3)_");

        assertThat(run.exitCode()).as(run.all()).isEqualTo(ExitCodes.OK);
        assertThat(run.out()).containsPattern("embedded ZooKeeper on 127\\.0\\.0\\.1:\\d+")
                .containsPattern("1\\.2 +PASSED")
                .containsPattern("14\\.2 +PASSED")
                .containsPattern("14\\.3 +PASSED") // bounded by the embedded store's 4 s connection timeout
                .contains("tck: 3 passed, 0 failed, 0 skipped");
    }

    @Test
    void aFilterMatchingNoRuleFails() {
        CliRun run = CliRun.of("tck", "--store", "mem:cli-tck", "--rule", "no_such_rule");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.CHECK_FAILED);
        assertThat(run.out()).contains("No rule ran").contains("tck: 0 passed, 0 failed, 0 skipped");
    }
}
