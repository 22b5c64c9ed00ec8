package io.distlock.cli.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rule numbers and titles come from the kit's method names ({@code rule_12_3_manyNamesHeldAtOnce}). */
class RuleResultTest {

    private static RuleResult result(String method) {
        return new RuleResult(method, RuleResult.Status.PASSED, Duration.ZERO, "");
    }

    @Test
    void readsRuleNumberAndTitleFromTheMethodName() {
        assertThat(result("rule_12_3_manyNamesHeldAtOnce").rule()).isEqualTo("12.3");
        assertThat(result("rule_12_3_manyNamesHeldAtOnce").title()).isEqualTo("many names held at once");
        assertThat(result("rule_1_2_3_deep").rule()).isEqualTo("1.2.3");
    }

    @Test
    void keepsOtherNamesAsTheyAre() {
        assertThat(result("somethingElse").rule()).isEqualTo("somethingElse");
    }

    @Test
    void ordersRulesNumerically() {
        List<String> rules = new ArrayList<>(List.of("10.1", "2.10", "2.9", "1.1", "zeta"));
        rules.sort(TckRunner::compareRuleNumbers);
        assertThat(rules).containsExactly("1.1", "2.9", "2.10", "10.1", "zeta");
    }
}
