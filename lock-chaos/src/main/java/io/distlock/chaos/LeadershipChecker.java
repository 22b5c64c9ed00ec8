package io.distlock.chaos;

import io.distlock.tck.check.CriticalSection;
import io.distlock.tck.check.FencedRegister;
import io.distlock.tck.check.HistoryChecker;
import io.distlock.tck.check.HistoryReport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the campaigners' histories of a leadership run and counts what went wrong: two leaders at once that were
 * never told (silent double leaders), terms granted twice or out of order, and leader writes the fence should have
 * refused. A term is the interval from ELECTED to its REVOKED or STEPPED_DOWN; it is <em>told</em> if it ended by a
 * loss (REVOKED) or its lease fired the lost signal. A killed leader's term ends at its last event. The kit's
 * {@link HistoryChecker} counts the overlapping terms.
 */
final class LeadershipChecker {

    /**
     * One campaigner's term: elected at {@code from}, over at {@code to}, whether it was told it was lost, and
     * whether its end is in the history (false: the leader was killed, or still led when the history ends).
     */
    record Term(String worker, long token, long from, long to, boolean told, boolean ended) {
        /** The term as the kit's critical section, for {@link HistoryChecker}. */
        CriticalSection section() {
            return new CriticalSection(ChaosChecker.LOCK, worker, from, to, token, told);
        }
    }

    private LeadershipChecker() {
    }

    /** The numbers of one run; {@code faultEndNanos} is nanoTime or -1. */
    static LeadershipResult check(String store, String scenario, List<Event> events, FencedRegister.State register,
            int faults, List<Long> faultStarts, long faultEndNanos, boolean unsafeByDesign, String note) {
        List<Event> sorted = new ArrayList<>(events);
        sorted.sort(Comparator.comparingLong(Event::nanos));
        List<Term> terms = terms(sorted);
        HistoryReport overlaps = HistoryChecker.check(terms.stream().map(Term::section).toList());
        long silent = overlaps.overlaps().size();
        long told = overlaps.toldOverlaps().size();
        List<Event> elected = sorted.stream().filter(e -> e.type().equals("ELECTED")).toList();
        Set<Long> seen = new HashSet<>();
        long reissued = elected.stream().filter(e -> !seen.add(e.token())).count();
        long refusals = sorted.stream().filter(e -> e.type().equals("READ_REFUSED") || e.type().equals(
                "WRITE_REFUSED")).count();
        long accepted = sorted.stream().filter(e -> e.type().equals("WRITE_OK") || e.type().equals(
                "WRITE_LOST_UPDATE")).count();
        Duration recovery = null;
        if (faultEndNanos > 0) {
            recovery = elected.stream().filter(e -> e.nanos() >= faultEndNanos).findFirst()
                    .map(e -> Duration.ofNanos(e.nanos() - faultEndNanos)).orElse(null);
        }
        long midTerm = faultStarts.stream().filter(t -> terms.stream().anyMatch(x -> x.from() <= t
                && t < heldUntil(x, elected))).count();
        return new LeadershipResult(store, scenario, faults, midTerm, elected.size(), seen.size(), silent, told,
                reissued, outOfOrder(terms), accepted, refusals, staleWrites(sorted), register.lostUpdates(),
                recovery, unsafeByDesign, note);
    }

    /** Pairs each ELECTED with the same campaigner's end of that term. */
    static List<Term> terms(List<Event> sorted) {
        long end = sorted.isEmpty() ? 0 : sorted.get(sorted.size() - 1).nanos();
        Map<String, Event> open = new HashMap<>();
        Map<String, Boolean> lostSignal = new HashMap<>();
        List<Term> terms = new ArrayList<>();
        for (Event e : sorted) {
            switch (e.type()) {
                case "ELECTED" -> {
                    open.put(e.worker(), e);
                    lostSignal.put(e.worker(), false);
                }
                case "LOST_SIGNAL" -> {
                    Event start = open.get(e.worker());
                    if (start != null && start.token() == e.token()) {
                        lostSignal.put(e.worker(), true);
                    }
                }
                case "REVOKED", "STEPPED_DOWN" -> {
                    Event start = open.remove(e.worker());
                    if (start != null) {
                        boolean lost = e.type().equals("REVOKED") || lostSignal.getOrDefault(e.worker(), false);
                        terms.add(new Term(e.worker(), start.token(), start.nanos(), e.nanos(), lost, true));
                    }
                }
                default -> {
                }
            }
        }
        for (Event start : open.values()) { // killed while leader, or still leader when the history ends
            long last = sorted.stream().filter(x -> x.worker().equals(start.worker())).mapToLong(Event::nanos).max()
                    .orElse(end);
            terms.add(new Term(start.worker(), start.token(), start.nanos(), last,
                    lostSignal.getOrDefault(start.worker(), false), false));
        }
        return terms;
    }

    /**
     * Until when {@code term}'s lease was held, for counting the faults that hit a leader: its end, or for a term that
     * never ended in the history (its leader was killed: its history stops at its last event before the kill), the
     * next election after it began, since the store frees the lease only when it runs out.
     */
    static long heldUntil(Term term, List<Event> elected) {
        if (term.ended()) {
            return term.to();
        }
        return elected.stream().mapToLong(Event::nanos).filter(n -> n > term.to()).findFirst()
                .orElse(term.to());
    }

    /**
     * Terms never told of a loss whose number is not above that of a term that had already ended when they began.
     * (A campaigner frozen between winning and hearing of it reports its term late, after later terms: it is then
     * told of the loss, so such terms are not counted.)
     */
    static long outOfOrder(List<Term> terms) {
        return terms.stream().filter(b -> !b.told())
                .filter(b -> terms.stream().anyMatch(a -> a.to() < b.from() && a.token() >= b.token())).count();
    }

    /** Leader writes accepted with term T although a term above T had been elected before they were issued. */
    static long staleWrites(List<Event> sorted) {
        long stale = 0;
        long highest = 0;
        for (Event e : sorted) {
            if (e.type().equals("ELECTED")) {
                highest = Math.max(highest, e.token());
            } else if ((e.type().equals("WRITE_OK") || e.type().equals("WRITE_LOST_UPDATE")) && e.token() < highest) {
                stale++;
            }
        }
        return stale;
    }
}
