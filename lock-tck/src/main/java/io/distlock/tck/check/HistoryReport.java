package io.distlock.tck.check;

import java.util.List;

/**
 * What {@link HistoryChecker} found.
 *
 * @param sections how many critical sections were checked
 * @param overlaps descriptions of pairs of sections that were inside one lock at the same time, neither holder
 *        told its lease was lost: mutual exclusion broken silently
 * @param toldOverlaps descriptions of pairs inside one lock at the same time where a holder was told its lease was
 *        lost (only its fencing token kept the resource safe)
 * @param lostUpdates increments made under the lock that the shared counter does not show
 * @param tokenViolations descriptions of holders whose token did not exceed their predecessor's
 * @param reissuedTokens sections whose token an earlier section of the same lock already had
 */
public record HistoryReport(int sections, List<String> overlaps, List<String> toldOverlaps, long lostUpdates,
        List<String> tokenViolations, long reissuedTokens) {

    /** Whether the history shows no violation at all (an overlap a holder was told about counts as none). */
    public boolean isClean() {
        return overlaps.isEmpty() && lostUpdates == 0 && tokenViolations.isEmpty() && reissuedTokens == 0;
    }

    @Override
    public String toString() {
        return sections + " sections, " + overlaps.size() + " overlaps, " + lostUpdates + " lost updates, "
                + tokenViolations.size() + " token violations"
                + (toldOverlaps.isEmpty() ? "" : ", " + toldOverlaps.size() + " overlaps a holder was told of")
                + (reissuedTokens == 0 ? "" : ", " + reissuedTokens + " re-issued tokens")
                + (overlaps.isEmpty() ? "" : "; first overlap: " + overlaps.get(0))
                + (tokenViolations.isEmpty() ? "" : "; first token violation: " + tokenViolations.get(0));
    }
}
