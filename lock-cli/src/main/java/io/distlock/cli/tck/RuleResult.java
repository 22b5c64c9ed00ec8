package io.distlock.cli.tck;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The outcome of one TCK test, named by its rule.
 *
 * @param method the test method name, e.g. {@code rule_1_1_onlyOneHolder}
 * @param status passed, failed or skipped
 * @param duration how long it ran (zero when skipped)
 * @param reason why it failed or was skipped, or empty
 */
public record RuleResult(String method, Status status, Duration duration, String reason) {

    private static final Pattern RULE = Pattern.compile("rule_(\\d+)_(\\d+)(?:_(\\d+))?_?(.*)");

    /** What happened to a test. */
    public enum Status { PASSED, FAILED, SKIPPED }

    /** The rule number, e.g. {@code 1.1}, or the method name when it does not follow the rule naming. */
    public String rule() {
        Matcher m = RULE.matcher(method);
        if (!m.matches()) {
            return method;
        }
        return m.group(1) + "." + m.group(2) + (m.group(3) == null ? "" : "." + m.group(3));
    }

    /** The rule's title from the method name, e.g. {@code only one holder}. */
    public String title() {
        Matcher m = RULE.matcher(method);
        String tail = m.matches() ? m.group(4) : method;
        return tail.replaceAll("([a-z0-9])([A-Z])", "$1 $2").replace('_', ' ').toLowerCase(Locale.ROOT).strip();
    }
}
