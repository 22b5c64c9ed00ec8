package io.distlock.chaos;

import io.distlock.tck.check.CriticalSection;
import io.distlock.tck.check.FencedRegister;
import io.distlock.tck.check.HistoryChecker;
import io.distlock.tck.check.HistoryReport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads worker histories and counts what went wrong: overlapping holds (told or not), stale writes accepted,
 * fence rejections and the acquisition outcomes. Holds are the intervals from ACQ_OK to the release's outcome, as
 * the kit's {@link CriticalSection}s: the kit's {@link HistoryChecker} counts their overlaps and re-issued tokens;
 * this class adds what only a fault run has (stale writes, recovery, faults that landed mid-hold).
 */
public final class ChaosChecker {

    /** The name the holds of a run's one lock go by. */
    static final String LOCK = "lock";

    private ChaosChecker() {
    }

    /** Counts for one run; {@code register} is the resource's final state, {@code faultEnd} nanoTime or -1. */
    public static ChaosResult check(String store, String scenario, List<Event> events, FencedRegister.State register,
            int faults, long faultEndNanos, boolean unsafeByDesign, String note) {
        return check(store, scenario, events, register, faults, List.of(), faultEndNanos, unsafeByDesign, note);
    }

    /**
     * Counts for one run, with the moments the faults started ({@code faultStarts}, nanoTime) so the checker can say
     * how many of them landed while someone held the lock.
     */
    public static ChaosResult check(String store, String scenario, List<Event> events, FencedRegister.State register,
            int faults, List<Long> faultStarts, long faultEndNanos, boolean unsafeByDesign, String note) {
        List<Event> sorted = new ArrayList<>(events);
        sorted.sort(Comparator.comparingLong(Event::nanos));
        long ops = count(sorted, "ACQ_INVOKE");
        long ok = count(sorted, "ACQ_OK");
        long fail = count(sorted, "ACQ_FAIL");
        long unknown = count(sorted, "ACQ_UNKNOWN");
        long rejections = count(sorted, "READ_REFUSED") + count(sorted, "WRITE_REFUSED");
        List<CriticalSection> holds = holds(sorted);
        HistoryReport history = HistoryChecker.check(holds);
        long stale = staleWrites(sorted);
        Duration recovery = null;
        if (faultEndNanos > 0) {
            recovery = sorted.stream().filter(e -> e.type().equals("ACQ_OK") && e.nanos() >= faultEndNanos)
                    .findFirst().map(e -> Duration.ofNanos(e.nanos() - faultEndNanos)).orElse(null);
        }
        Map<String, Long> lastRelease = new HashMap<>();
        sorted.stream().filter(e -> e.type().startsWith("REL_")).forEach(e -> lastRelease.put(e.worker(), e.nanos()));
        long midHold = faultStarts.stream().filter(t -> holds.stream().anyMatch(h -> h.enterNanos() <= t
                && (t < h.exitNanos() || t < killedHolderUntil(h, lastRelease, sorted)))).count();
        return new ChaosResult(store, scenario, ops, faults, midHold, ok, fail, unknown, history.overlaps().size(),
                history.toldOverlaps().size(), register.lostUpdates(), rejections, stale, history.reissuedTokens(),
                recovery, unsafeByDesign, note);
    }

    private static long count(List<Event> events, String type) {
        return events.stream().filter(e -> e.type().equals(type)).count();
    }

    /** Pairs each ACQ_OK with the same worker's next release outcome; a hold with no end lasts to the last event. */
    public static List<CriticalSection> holds(List<Event> sorted) {
        long end = sorted.isEmpty() ? 0 : sorted.get(sorted.size() - 1).nanos();
        Map<String, Event> open = new HashMap<>();
        Map<String, Boolean> told = new HashMap<>();
        List<CriticalSection> holds = new ArrayList<>();
        for (Event e : sorted) {
            switch (e.type()) {
                case "ACQ_OK" -> {
                    open.put(e.worker(), e);
                    told.put(e.worker(), false);
                }
                case "LOST_SIGNAL", "EXT_LOST" -> {
                    Event start = open.get(e.worker());
                    if (start != null && start.token() == e.token()) {
                        told.put(e.worker(), true);
                    }
                }
                case "REL_OK", "REL_LOST", "REL_UNKNOWN" -> {
                    Event start = open.remove(e.worker());
                    if (start != null) {
                        boolean lost = !e.type().equals("REL_OK") || told.getOrDefault(e.worker(), false);
                        holds.add(new CriticalSection(LOCK, e.worker(), start.nanos(), e.nanos(), start.token(), lost));
                    }
                }
                default -> {
                }
            }
        }
        // a worker killed while holding never released: its hold lasts until the lock was freed for it, i.e. the
        // kill; it was never told, but a dead process writes nothing, so the hold ends at its last event
        for (Event start : open.values()) {
            long last = sorted.stream().filter(x -> x.worker().equals(start.worker())).mapToLong(Event::nanos).max()
                    .orElse(end);
            holds.add(new CriticalSection(LOCK, start.worker(), start.nanos(), last, start.token(),
                    told.getOrDefault(start.worker(), false)));
        }
        return holds;
    }

    /**
     * For a hold whose worker never released it (killed while holding): the next acquisition by another worker, until
     * when the lock stayed taken; for any other hold, its end.
     */
    private static long killedHolderUntil(CriticalSection h, Map<String, Long> lastRelease, List<Event> sorted) {
        if (lastRelease.getOrDefault(h.client(), Long.MIN_VALUE) >= h.enterNanos()) {
            return h.exitNanos();
        }
        return sorted.stream().filter(e -> e.type().equals("ACQ_OK") && !e.worker().equals(h.client())
                && e.nanos() > h.enterNanos()).mapToLong(Event::nanos).findFirst().orElse(Long.MAX_VALUE);
    }

    /** Writes accepted with token T after another client had been granted a token above T. */
    public static long staleWrites(List<Event> sorted) {
        long stale = 0;
        long highestGranted = 0;
        for (Event e : sorted) {
            if (e.type().equals("ACQ_OK")) {
                highestGranted = Math.max(highestGranted, e.token());
            } else if ((e.type().equals("WRITE_OK") || e.type().equals("WRITE_LOST_UPDATE"))
                    && e.token() < highestGranted) {
                stale++;
            }
        }
        return stale;
    }
}
