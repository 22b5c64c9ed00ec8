package io.distlock.chaos.explore;

import java.time.Duration;
import java.util.List;

/**
 * What one explorer run found.
 *
 * @param name the run's name, which replays it
 * @param injectedAt what the scenario was doing at the step the fault hit, or null if the run never reached it
 * @param steps the round trips the run counted
 * @param holds holds (or terms) recorded
 * @param violations each broken rule, in a sentence; empty when the run met every bar
 * @param took the run's duration
 * @param history the recorded events and what the store said held the name, in time order, for a replay to show
 */
public record ExploreResult(RunName name, String injectedAt, int steps, int holds, List<String> violations,
        Duration took, List<String> history) {

    /** Whether the run met every bar. */
    public boolean clean() {
        return violations.isEmpty();
    }

    /** Whether the fault was injected (the run reached its step). */
    public boolean reached() {
        return name.fault() == Fault.NONE || injectedAt != null;
    }
}
