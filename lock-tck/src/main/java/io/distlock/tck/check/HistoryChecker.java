package io.distlock.tck.check;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Checks a history of critical sections for the ways a lock can fail: two holders inside at once (every
 * overlapping pair, apart from those a holder was told of), increments lost on a shared counter, fencing tokens
 * that do not increase from one holder to the next, and tokens granted twice. Sections are grouped by lock name.
 * The kit checks its clients' sections with it, the fault suite its workers' holds.
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
        List<String> toldOverlaps = new ArrayList<>();
        List<String> tokenViolations = new ArrayList<>();
        long reissued = 0;
        Map<String, List<CriticalSection>> byLock = sections.stream()
                .collect(Collectors.groupingBy(CriticalSection::lock));
        for (List<CriticalSection> ofLock : byLock.values()) {
            List<CriticalSection> sorted = new ArrayList<>(ofLock);
            sorted.sort(Comparator.comparingLong(CriticalSection::enterNanos));
            overlappingPairs(sorted, overlaps, toldOverlaps);
            tokenViolations.addAll(tokenViolations(sorted));
            reissued += reissuedTokens(sorted);
        }
        long lost = expectedCount < 0 ? 0 : expectedCount - counterValue;
        return new HistoryReport(sections.size(), overlaps, toldOverlaps, lost, tokenViolations, reissued);
    }

    /** Checks only overlaps and tokens. */
    public static HistoryReport check(Collection<CriticalSection> sections) {
        return check(sections, -1, -1);
    }

    /** Every pair of sections of {@code sorted} (by entry) inside at once, silent or told. */
    private static void overlappingPairs(List<CriticalSection> sorted, List<String> silent, List<String> told) {
        for (int i = 0; i < sorted.size(); i++) {
            CriticalSection a = sorted.get(i);
            for (int j = i + 1; j < sorted.size() && sorted.get(j).enterNanos() < a.exitNanos(); j++) {
                CriticalSection b = sorted.get(j);
                (a.told() || b.told() ? told : silent).add(a + " overlaps " + b);
            }
        }
    }

    /** Sections whose token does not exceed that of the holder before them (the one that left last). */
    private static List<String> tokenViolations(List<CriticalSection> sorted) {
        List<String> violations = new ArrayList<>();
        long maxExit = Long.MIN_VALUE;
        CriticalSection before = null;
        for (CriticalSection s : sorted) {
            if (before != null && s.token() <= before.token()) {
                violations.add("token " + s.token() + " of " + s + " does not exceed " + before.token()
                        + " of the holder before it, " + before);
            }
            if (s.exitNanos() > maxExit) {
                maxExit = s.exitNanos();
                before = s;
            }
        }
        return violations;
    }

    /** Sections granted a token an earlier section already had (no holder re-enters: each grant is new). */
    private static long reissuedTokens(List<CriticalSection> sorted) {
        Set<Long> granted = new HashSet<>();
        return sorted.stream().filter(s -> !granted.add(s.token())).count();
    }
}
