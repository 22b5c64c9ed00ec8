package io.distlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@code distlock tck} runs the real kit through the JUnit Platform launcher. Against the in-memory reference store
 * (quick, needs no server) a selection of rules must pass; a filter matching nothing must fail.
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
    void aFilterMatchingNoRuleFails() {
        CliRun run = CliRun.of("tck", "--store", "mem:cli-tck", "--rule", "no_such_rule");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.CHECK_FAILED);
        assertThat(run.out()).contains("No rule ran").contains("tck: 0 passed, 0 failed, 0 skipped");
    }
}
