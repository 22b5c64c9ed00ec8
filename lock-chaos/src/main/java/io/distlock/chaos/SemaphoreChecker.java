package io.distlock.chaos;

import io.distlock.tck.check.CriticalSection;
import io.distlock.tck.check.HistoryChecker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Reads the histories of a semaphore run and counts, at every moment, the permits held: all of them, and those whose
 * holders were never told of a loss (the lost signal, {@code extend()} returning false, or {@code LockLostException}
 * at release). The silent ones must never be more than the limit: a holder told of its loss may overlap a newer one
 * (its lease ran out while it was frozen), one never told may not. Holds are the lock checker's: ACQ_OK to the
 * release's outcome, a killed holder's ending at its last event.
 */
public final class SemaphoreChecker {

    private SemaphoreChecker() {
    }

    /** The numbers of one run; {@code faultEndNanos} is nanoTime or -1. */
    static SemaphoreResult check(String store, String scenario, int limit, List<Event> events, int faults,
            List<Long> faultStarts, long faultEndNanos, boolean unsafeByDesign, String note) {
        List<Event> sorted = new ArrayList<>(events);
        sorted.sort(Comparator.comparingLong(Event::nanos));
        List<CriticalSection> holds = ChaosChecker.holds(sorted);
        Sweep all = sweep(holds, limit);
        Sweep silent = sweep(holds.stream().filter(h -> !h.told()).toList(), limit);
        Duration recovery = null;
        if (faultEndNanos > 0) {
            recovery = sorted.stream().filter(e -> e.type().equals("ACQ_OK") && e.nanos() >= faultEndNanos)
                    .findFirst().map(e -> Duration.ofNanos(e.nanos() - faultEndNanos)).orElse(null);
        }
        long midHold = faultStarts.stream()
                .filter(t -> holds.stream().anyMatch(h -> h.enterNanos() <= t && t < h.exitNanos())).count();
        return new SemaphoreResult(store, scenario, limit, count(sorted, "ACQ_INVOKE"), faults, midHold,
                count(sorted, "ACQ_OK"), count(sorted, "ACQ_FAIL"), count(sorted, "ACQ_UNKNOWN"), all.max(),
                silent.max(), silent.aboveLimit(), holds.stream().filter(CriticalSection::told).count(),
                HistoryChecker.check(holds).reissuedTokens(), recovery, unsafeByDesign, note);
    }

    /** The most holds at once, and how many holds began while the limit was already reached. */
    public record Sweep(long max, long aboveLimit) {
    }

    /** Walks the holds' starts and ends in time order (an end before a start at the same instant). */
    public static Sweep sweep(List<CriticalSection> holds, int limit) {
        List<long[]> edges = new ArrayList<>();
        for (CriticalSection h : holds) {
            edges.add(new long[] {h.enterNanos(), 1});
            edges.add(new long[] {h.exitNanos(), -1});
        }
        edges.sort(Comparator.<long[]>comparingLong(x -> x[0]).thenComparingLong(x -> x[1]));
        long now = 0;
        long max = 0;
        long above = 0;
        for (long[] edge : edges) {
            now += edge[1];
            if (edge[1] > 0 && now > limit) {
                above++;
            }
            max = Math.max(max, now);
        }
        return new Sweep(max, above);
    }

    private static long count(List<Event> events, String type) {
        return events.stream().filter(e -> e.type().equals(type)).count();
    }
}
