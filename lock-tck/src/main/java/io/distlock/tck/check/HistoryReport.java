package io.distlock.tck.check;

import java.util.List;

/**
 * What {@link HistoryChecker} found.
 *
 * @param sections how many critical sections were checked
 * @param overlaps descriptions of pairs of sections that were inside one lock at the same time
 * @param lostUpdates increments made under the lock that the shared counter does not show
 * @param tokenViolations descriptions of holders whose token did not exceed their predecessor's
 */
public record HistoryReport(int sections, List<String> overlaps, long lostUpdates, List<String> tokenViolations) {

    /** Whether the history shows no violation at all. */
    public boolean isClean() {
        return overlaps.isEmpty() && lostUpdates == 0 && tokenViolations.isEmpty();
    }

    @Override
    public String toString() {
        return sections + " sections, " + overlaps.size() + " overlaps, " + lostUpdates + " lost updates, "
                + tokenViolations.size() + " token violations"
                + (overlaps.isEmpty() ? "" : "; first overlap: " + overlaps.get(0))
                + (tokenViolations.isEmpty() ? "" : "; first token violation: " + tokenViolations.get(0));
    }
}
