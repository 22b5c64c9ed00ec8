package io.distlock.tck.check;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Checks a history of critical sections for the three ways a lock can fail: two holders inside at once
 * (overlaps), increments lost on a shared counter, and fencing tokens that do not increase from one holder to the
 * next. Sections are grouped by lock name.
 */
public final class HistoryChecker {

    private HistoryChecker() {
    }

    /**
     * Checks {@code sections}; {@code expectedCount} is how many increments were made under the lock, and
     * {@code counterValue} is what the shared counter ended at (pass -1 for both to skip the lost-update check).
     */
    public static HistoryReport check(Collection<CriticalSection> sections, long expectedCount, long counterValue) {
        List<String> overlaps = new ArrayList<>();
        List<String> tokenViolations = new ArrayList<>();
        Map<String, List<CriticalSection>> byLock = sections.stream()
                .collect(Collectors.groupingBy(CriticalSection::lock));
        for (List<CriticalSection> ofLock : byLock.values()) {
            List<CriticalSection> sorted = new ArrayList<>(ofLock);
            sorted.sort(Comparator.comparingLong(CriticalSection::enterNanos));
            long maxExit = Long.MIN_VALUE;
            CriticalSection maxExitSection = null;
            for (CriticalSection s : sorted) {
                if (maxExitSection != null && s.enterNanos() < maxExit) {
                    overlaps.add(maxExitSection + " overlaps " + s);
                }
                if (maxExitSection != null && s.token() <= maxExitSection.token()) {
                    tokenViolations.add("token " + s.token() + " of " + s + " does not exceed " + maxExitSection.token()
                            + " of the holder before it, " + maxExitSection);
                }
                if (s.exitNanos() > maxExit) {
                    maxExit = s.exitNanos();
                    maxExitSection = s;
                }
            }
        }
        long lost = expectedCount < 0 ? 0 : expectedCount - counterValue;
        return new HistoryReport(sections.size(), overlaps, lost, tokenViolations);
    }

    /** Checks only overlaps and tokens. */
    public static HistoryReport check(Collection<CriticalSection> sections) {
        return check(sections, -1, -1);
    }
}
