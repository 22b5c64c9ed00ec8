package io.distlock.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * The sizes of {@code --quick}: every phase of the report (counted costs with and without a 2 ms round trip, the
 * scenarios at 0.5 ms, the growth curves, the no-delay scenarios) at sizes that fit about half an hour on a 2-core
 * shared host, where the full sizes take hours. An option the user gave explicitly keeps the user's value.
 */
final class QuickPreset {

    /** Option values of the preset, in the order the help text lists them. */
    static final Map<String, Object> VALUES = values();

    /** The preset as command-line text, for the help (a constant, as annotations need; a test checks it). */
    static final String DESCRIPTION = "--runs 3 --duration 1s --warmup 1s --round-trip-pairs 0 --held 0 --no-profile "
            + "--cost-runs 5 --cost-duration 1s --cost-delay 1ms --delay 0.25ms --waiters 1,4,16,64 "
            + "--waiters-duration 1s --names-once 1000,10000 --held-curve 1000,10000";

    private QuickPreset() {
    }

    private static Map<String, Object> values() {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("--runs", 3);
        v.put("--duration", "1s");
        v.put("--warmup", "1s");
        v.put("--round-trip-pairs", 0);
        v.put("--held", 0);
        v.put("--no-profile", true);
        v.put("--cost-runs", 5);
        v.put("--cost-duration", "1s");
        v.put("--cost-delay", List.of("1ms"));
        v.put("--delay", List.of("0.25ms"));
        v.put("--waiters", List.of("1", "4", "16", "64"));
        v.put("--waiters-duration", "1s");
        v.put("--names-once", List.of("1000", "10000"));
        v.put("--held-curve", List.of("1000", "10000"));
        return v;
    }

    /** {@link #VALUES} as command-line text. */
    static String describe() {
        StringBuilder sb = new StringBuilder();
        VALUES.forEach((option, value) -> {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append(option);
            if (!(value instanceof Boolean)) {
                sb.append(' ').append(value instanceof List<?> list ? String.join(",", list.stream()
                        .map(Object::toString).toList()) : value.toString());
            }
        });
        return sb.toString();
    }

    /** Sets every preset option the command line of {@code spec} did not give explicitly. */
    static void apply(CommandSpec spec) {
        ParseResult parsed = spec.commandLine().getParseResult();
        VALUES.forEach((name, value) -> {
            if (!parsed.hasMatchedOption(name)) {
                OptionSpec option = spec.findOption(name);
                if (option == null) {
                    throw new IllegalStateException("--quick names unknown option " + name);
                }
                option.setValue(value instanceof List<?> list ? new java.util.ArrayList<>(list) : value);
            }
        });
    }
}
