package io.distlock.cli.tck;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.junit.platform.engine.FilterResult;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.PostDiscoveryFilter;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs the compatibility kit ({@link UriStoreTck}) against one store through the JUnit Platform launcher and
 * collects one {@link RuleResult} per test, reporting each as it finishes.
 */
final class TckRunner {

    private TckRunner() {
    }

    /**
     * Runs every rule whose test method name matches {@code ruleFilter} (null: all) against {@code target}.
     *
     * @param onResult told of each result as it arrives, for progress output
     * @return the results sorted by rule number
     */
    static List<RuleResult> run(TckTarget target, Pattern ruleFilter, Consumer<RuleResult> onResult) {
        TckTarget.set(target);
        try {
            LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request()
                    .selectors(DiscoverySelectors.selectClass(UriStoreTck.class))
                    .configurationParameter("junit.jupiter.execution.parallel.enabled", "false");
            if (ruleFilter != null) {
                request.filters(methodNameFilter(ruleFilter));
            }
            LauncherDiscoveryRequest discovery = request.build();
            Collector collector = new Collector(onResult);
            Launcher launcher = LauncherFactory.create();
            launcher.execute(discovery, collector);
            List<RuleResult> results = new ArrayList<>(collector.results);
            results.sort(Comparator.comparing(RuleResult::rule, TckRunner::compareRuleNumbers)
                    .thenComparing(RuleResult::method));
            return results;
        } finally {
            TckTarget.clear();
        }
    }

    private static PostDiscoveryFilter methodNameFilter(Pattern ruleFilter) {
        return descriptor -> {
            if (descriptor.getSource().orElse(null) instanceof MethodSource method) {
                return FilterResult.includedIf(ruleFilter.matcher(method.getMethodName()).find());
            }
            return FilterResult.included("container");
        };
    }

    /** Orders {@code 2.10} after {@code 2.9}; names that are not numbers go last. */
    static int compareRuleNumbers(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            int c = compareParts(x[i], y[i]);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(x.length, y.length);
    }

    private static int compareParts(String a, String b) {
        boolean an = a.chars().allMatch(Character::isDigit) && !a.isEmpty();
        boolean bn = b.chars().allMatch(Character::isDigit) && !b.isEmpty();
        if (an && bn) {
            return Long.compare(Long.parseLong(a), Long.parseLong(b));
        }
        if (an != bn) {
            return an ? -1 : 1;
        }
        return a.compareTo(b);
    }

    /** Listens to the launcher and turns each finished or skipped test into a {@link RuleResult}. */
    private static final class Collector implements TestExecutionListener {
        private final Consumer<RuleResult> onResult;
        private final List<RuleResult> results = new ArrayList<>();
        private final Map<String, Long> started = new ConcurrentHashMap<>();

        Collector(Consumer<RuleResult> onResult) {
            this.onResult = onResult;
        }

        @Override
        public void executionStarted(TestIdentifier test) {
            started.put(test.getUniqueId(), System.nanoTime());
        }

        @Override
        public void executionSkipped(TestIdentifier test, String reason) {
            if (test.isTest()) {
                add(new RuleResult(methodName(test), RuleResult.Status.SKIPPED, Duration.ZERO,
                        reason == null ? "" : reason));
            }
        }

        @Override
        public void executionFinished(TestIdentifier test, TestExecutionResult result) {
            Long start = started.remove(test.getUniqueId());
            Duration took = Duration.ofNanos(start == null ? 0 : System.nanoTime() - start);
            String reason = result.getThrowable().map(Collector::describe).orElse("");
            if (test.isTest()) {
                RuleResult.Status status = switch (result.getStatus()) {
                    case SUCCESSFUL -> RuleResult.Status.PASSED;
                    case ABORTED -> RuleResult.Status.SKIPPED;
                    case FAILED -> RuleResult.Status.FAILED;
                };
                add(new RuleResult(methodName(test), status, took, reason));
            } else if (result.getStatus() == TestExecutionResult.Status.FAILED) {
                // a failing container (e.g. its set-up) fails every rule it holds: report it as a failure too
                add(new RuleResult(test.getDisplayName(), RuleResult.Status.FAILED, took, reason));
            }
        }

        private synchronized void add(RuleResult r) {
            results.add(r);
            onResult.accept(r);
        }

        private static String methodName(TestIdentifier test) {
            if (test.getSource().orElse(null) instanceof MethodSource method) {
                return method.getMethodName();
            }
            return test.getDisplayName();
        }

        private static String describe(Throwable t) {
            String msg = t.getMessage() == null ? t.getClass().getName() : t.getMessage();
            return msg.strip().replaceAll("\\s+", " ");
        }
    }
}
