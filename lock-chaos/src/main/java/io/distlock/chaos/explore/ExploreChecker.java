package io.distlock.chaos.explore;

import io.distlock.chaos.ChaosChecker;
import io.distlock.chaos.ChaosResult;
import io.distlock.chaos.Event;
import io.distlock.chaos.SemaphoreChecker;
import io.distlock.tck.check.CriticalSection;
import io.distlock.tck.check.HistoryChecker;
import io.distlock.tck.check.HistoryReport;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Checks one explorer run's history with the fault suite's checkers: holds as {@link ChaosChecker} pairs them, holders
 * never told of a loss above the limit ({@link SemaphoreChecker#sweep}), tokens issued twice or out of order
 * ({@link HistoryChecker}), stale writes accepted and lost updates at the fenced register ({@link ChaosChecker}),
 * plus the run's own bound violations (a call that did not return within its bound, a name left held by nobody).
 */
final class ExploreChecker {

    private ExploreChecker() {
    }

    /** The violations of the run recorded in {@code ctx}; empty if it met every bar. */
    static List<String> check(Scenario scenario, RunContext ctx) {
        List<Event> sorted = new ArrayList<>(ctx.events());
        sorted.sort(Comparator.comparingLong(Event::nanos));
        List<CriticalSection> holds = ChaosChecker.holds(sorted);
        List<String> violations = new ArrayList<>(ctx.violations());
        List<CriticalSection> silent = holds.stream().filter(h -> !h.told()).toList();
        SemaphoreChecker.Sweep sweep = SemaphoreChecker.sweep(silent, scenario.limit());
        if (sweep.aboveLimit() > 0) {
            violations.add(sweep.max() + " holders at once never told of a loss (limit " + scenario.limit() + "): "
                    + describe(silent));
        }
        HistoryReport history = HistoryChecker.check(holds);
        if (history.reissuedTokens() > 0) {
            violations.add(history.reissuedTokens() + " fencing token(s) issued twice: " + describe(holds));
        }
        if (scenario.limit() == 1 && !history.tokenViolations().isEmpty()) {
            violations.add("tokens out of order: " + history.tokenViolations());
        }
        ChaosResult chaos = ChaosChecker.check(ctx.store.label(), scenario.label(), sorted, ctx.register.state(), 1,
                -1, false, "");
        if (chaos.staleWritesAccepted() > 0) {
            violations.add(chaos.staleWritesAccepted() + " stale write(s) accepted by the fenced register");
        }
        if (chaos.lostUpdates() > 0) {
            violations.add(chaos.lostUpdates() + " lost update(s) at the fenced register");
        }
        return violations;
    }

    private static String describe(List<CriticalSection> holds) {
        return holds.stream().map(h -> h.client() + "#" + h.token() + (h.told() ? "(told)" : "")).toList().toString();
    }
}
