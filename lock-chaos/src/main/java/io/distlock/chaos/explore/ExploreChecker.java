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
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checks one explorer run's history with the fault suite's checkers: holds as {@link ChaosChecker} pairs them, holders
 * never told of a loss above the limit ({@link SemaphoreChecker#sweep}), tokens issued twice or out of order
 * ({@link HistoryChecker}), stale writes accepted and lost updates at the fenced register ({@link ChaosChecker}),
 * plus the run's own bound violations (a call that did not return within its bound, a name left held by nobody).
 */
final class ExploreChecker {

    private ExploreChecker() {
    }


    /**
     * How long a waiter may go on waiting while the store says the name has room: a wake-up missed by its listener or
     * subscription must be noticed by the client's own liveness checks well before this.
     */
    static final Duration WAKE_UP = Duration.ofSeconds(15);

    /** Events after which a token may stay at the store until its lease runs out: its holder could not end it. */
    private static final Set<String> TROUBLE = Set.of("REL_UNKNOWN", "REL_LOST", "EXT_UNKNOWN", "EXT_LOST",
            "LOST_SIGNAL");
    /** Events that tell a holder its lease is lost (not merely unknown): its later writes are its own doing. */
    private static final Set<String> TOLD_LOST = Set.of("LOST_SIGNAL", "EXT_LOST", "REL_LOST");

    /**
     * The violations of the run recorded in {@code ctx}; empty if it met every bar. {@code samples} are what the store
     * said held the name; {@code excused} says the fault itself may leave a token at the store until its lease runs
     * out (a server fault, a fault on a client's close).
     */
    static List<String> check(Scenario scenario, RunContext ctx, List<HolderObserver.Sample> samples,
            boolean excused) {
        return check(scenario, ctx, samples, excused, Fault.NONE);
    }

    /**
     * As {@link #check(Scenario, RunContext, List, boolean)} for a run whose injected fault was {@code fault}: after
     * {@code operator-delete} a second holder before the first hears of it is the operator's doing, not the store's
     * (tokens must still never repeat or go backwards); after an operator's write to the fencing counter the admin
     * listing may show the counter's value for the holder's token, so holders are counted, not matched by token.
     */
    static List<String> check(Scenario scenario, RunContext ctx, List<HolderObserver.Sample> samples,
            boolean excused, Fault fault) {
        boolean overlapExcused = fault == Fault.OPERATOR_DELETE;
        List<Event> sorted = new ArrayList<>(ctx.events());
        sorted.sort(Comparator.comparingLong(Event::nanos));
        sorted = invalidAsTold(sorted);
        List<CriticalSection> holds = ChaosChecker.holds(sorted);
        if (fault.spoilsFence()) {
            Set<Long> granted = new HashSet<>();
            holds.forEach(h -> granted.add(h.token()));
            samples = samples.stream().map(x -> new HolderObserver.Sample(x.nanos(), x.tokens().stream()
                    .map(t -> granted.contains(t) ? t : HolderObserver.UNLISTED)
                    .collect(java.util.stream.Collectors.toSet()))).toList();
        }
        List<String> violations = new ArrayList<>(ctx.violations());
        List<CriticalSection> silent = holds.stream().filter(h -> !h.told()).toList();
        SemaphoreChecker.Sweep sweep = SemaphoreChecker.sweep(silent, scenario.limit());
        if (sweep.aboveLimit() > 0 && !overlapExcused) {
            violations.add(sweep.max() + " holders at once never told of a loss (limit " + scenario.limit() + "): "
                    + describe(silent));
        }
        List<CriticalSection> untold = untilTold(holds, sorted);
        SemaphoreChecker.Sweep early = SemaphoreChecker.sweep(untold, scenario.limit());
        if (early.aboveLimit() > 0 && sweep.aboveLimit() == 0 && !overlapExcused) {
            violations.add(early.max() + " holders at once before any of them was told of a loss (limit "
                    + scenario.limit() + "): " + describe(holds));
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
        long stale = staleWrites(sorted);
        if (stale > 0 && !overlapExcused) { // a write before the next holder's first one
            violations.add(stale + " stale write(s) accepted by the fenced register");
        }
        if (chaos.lostUpdates() > 0) {
            violations.add(chaos.lostUpdates() + " lost update(s) at the fenced register");
        }
        violations.addAll(missedWakeUps(sorted, samples, scenario.limit(), ctx.store.wakeUp()));
        violations.addAll(orphans(sorted, holds, samples, ctx.store.prompt(),
                excused ? ctx.store.lease().plus(ctx.opBound()) : null, ctx.store.lease().plus(ctx.opBound())));
        return violations;
    }

    /**
     * Waiters that went on waiting while every sample of the store, for longer than {@code bound}, showed room for
     * them (fewer holders than the limit): a release they never heard of.
     */
    static List<String> missedWakeUps(List<Event> sorted, List<HolderObserver.Sample> samples, int limit,
            Duration bound) {
        List<String> violations = new ArrayList<>();
        Map<String, Long> waiting = new HashMap<>();
        for (Event e : sorted) {
            if (e.type().equals("ACQ_INVOKE")) {
                waiting.put(e.worker(), e.nanos());
            } else if (e.type().startsWith("ACQ_") && waiting.containsKey(e.worker())) {
                long from = waiting.remove(e.worker());
                long longest = 0;
                long start = -1;
                for (HolderObserver.Sample x : samples) {
                    if (x.nanos() < from || x.nanos() > e.nanos()) {
                        continue;
                    }
                    if (x.tokens().size() < limit) {
                        start = start < 0 ? x.nanos() : start;
                        longest = Math.max(longest, x.nanos() - start);
                    } else {
                        start = -1;
                    }
                }
                if (longest > bound.toNanos()) {
                    violations.add(e.worker() + " waited " + longest / 1_000_000 + " ms while the store had room for"
                            + " it (bound " + bound.toMillis() + " ms), then " + e.type());
                }
            }
        }
        return violations;
    }

    /**
     * Tokens the store held for nobody alive (no recorded hold of that token at that moment) longer than their
     * bound: {@code prompt} (the store's {@link ExploreStore#prompt()}), or {@code tolerant} when the run's fault
     * excuses it ({@code excusedAll}) or the token's
     * holder was told of trouble (its release or renewal went unanswered, its lease was lost).
     */
    static List<String> orphans(List<Event> sorted, List<CriticalSection> holds, List<HolderObserver.Sample> samples,
            Duration prompt, Duration excusedAll, Duration tolerant) {
        Map<Long, List<CriticalSection>> live = new HashMap<>();
        holds.forEach(h -> live.computeIfAbsent(h.token(), t -> new ArrayList<>()).add(h));
        Set<Long> troubled = new HashSet<>();
        sorted.stream().filter(e -> TROUBLE.contains(e.type())).forEach(e -> troubled.add(e.token()));
        Set<Long> tokens = new TreeSet<>();
        samples.forEach(x -> tokens.addAll(x.tokens()));
        List<String> violations = new ArrayList<>();
        for (long token : tokens) {
            Duration bound = excusedAll != null || troubled.contains(token) ? tolerant : prompt;
            long start = -1;
            long end = -1;
            long longest = 0;
            long longestEnd = 0;
            for (HolderObserver.Sample x : samples) {
                boolean orphan = x.tokens().contains(token) && (token == HolderObserver.UNLISTED
                        ? holds.stream().filter(h -> h.enterNanos() <= x.nanos() && x.nanos() <= h.exitNanos())
                                .count() < x.tokens().size()
                        : live.getOrDefault(token, List.of()).stream()
                                .noneMatch(h -> h.enterNanos() <= x.nanos() && x.nanos() <= h.exitNanos()));
                if (orphan) {
                    if (start < 0) {
                        start = x.nanos();
                    }
                    end = x.nanos();
                    if (end - start >= longest) {
                        longest = end - start;
                        longestEnd = end;
                    }
                } else {
                    start = -1;
                }
            }
            if (token == HolderObserver.UNLISTED) { // whose token it is the probe cannot say: any trouble before
                long until = longestEnd;
                if (sorted.stream().anyMatch(e -> TROUBLE.contains(e.type()) && e.nanos() <= until)) {
                    bound = tolerant;
                }
            }
            if (longest > bound.toNanos() && token == HolderObserver.UNLISTED) {
                violations.add("the name held at the store by nobody alive for " + longest / 1_000_000 + " ms (bound "
                        + bound.toMillis() + " ms): more holders at the store (listed, or a tryAcquire probe refused"
                        + " with room in the listing) than clients holding it");
            } else if (longest > bound.toNanos()) {
                violations.add("token " + token + " held at the store by nobody alive for " + longest / 1_000_000
                        + " ms (bound " + bound.toMillis() + " ms" + (live.containsKey(token) ? ", after its hold ended"
                        : ", never granted to a client that knew it") + ")");
            }
        }
        return violations;
    }

    /**
     * A lease that answered {@code isValid() == false} while its worker still held it told its holder (as a lost-lease
     * signal does); the same answer after the hold ended (every released lease is invalid) is dropped.
     */
    static List<Event> invalidAsTold(List<Event> sorted) {
        Map<String, Long> open = new HashMap<>();
        List<Event> out = new ArrayList<>();
        for (Event e : sorted) {
            switch (e.type()) {
                case "ACQ_OK" -> open.put(e.worker(), e.token());
                case "REL_OK", "REL_LOST", "REL_UNKNOWN" -> open.remove(e.worker());
                default -> {
                }
            }
            if (!e.type().equals("INVALID")) {
                out.add(e);
            } else if (Long.valueOf(e.token()).equals(open.get(e.worker()))) {
                out.add(new Event(e.worker(), e.nanos(), "LOST_SIGNAL", e.token()));
            }
        }
        return out;
    }

    /**
     * Writes the fenced register accepted with a token below one granted before them ({@code sorted} as
     * {@link #invalidAsTold} leaves it), leaving out writes issued after their holder was told its lease was lost
     * (a lost-lease signal, an invalid lease, a renewal answered "lost"): such a write is the scenario acting on a
     * lease the store said it no longer had (B's last write in the lock scenario), not a lease that failed. No
     * {@link #TOLD_LAG} here: only a telling recorded before the write was issued excuses it.
     */
    static long staleWrites(List<Event> sorted) {
        Set<String> told = new HashSet<>(); // worker and token
        List<Event> untold = new ArrayList<>();
        for (Event e : sorted) {
            String key = e.worker() + "#" + e.token();
            if (TOLD_LOST.contains(e.type())) {
                told.add(key);
            }
            boolean write = e.type().equals("WRITE_OK") || e.type().equals("WRITE_LOST_UPDATE");
            if (!(write && told.contains(key))) {
                untold.add(e);
            }
        }
        return ChaosChecker.staleWrites(untold);
    }

    /** How much later than the core's decision a lost lease's event may be recorded (the listener's thread). */
    static final Duration TOLD_LAG = Duration.ofMillis(100);

    /**
     * Each hold up to the moment its holder was told it might have lost it (a lost-lease signal, a renewal or release
     * answered "lost" or not at all), less {@link #TOLD_LAG}: two holders at once within these spans both acted on the
     * name before either heard a word, which a lease must prevent whether or not one of them hears later.
     */
    static List<CriticalSection> untilTold(List<CriticalSection> holds, List<Event> sorted) {
        Set<String> telling = Set.of("LOST_SIGNAL", "EXT_LOST", "EXT_UNKNOWN", "REL_LOST", "REL_UNKNOWN");
        List<CriticalSection> spans = new ArrayList<>();
        for (CriticalSection h : holds) {
            long end = h.exitNanos();
            if (h.told()) {
                end = sorted.stream().filter(e -> e.worker().equals(h.client()) && e.token() == h.token()
                        && telling.contains(e.type()) && e.nanos() >= h.enterNanos())
                        .mapToLong(Event::nanos).min().orElse(end);
                end = Math.max(h.enterNanos(), Math.min(h.exitNanos(), end) - TOLD_LAG.toNanos());
            }
            spans.add(new CriticalSection(h.lock(), h.client(), h.enterNanos(), end, h.token(), false));
        }
        return spans;
    }

    private static String describe(List<CriticalSection> holds) {
        return holds.stream().map(h -> h.client() + "#" + h.token() + (h.told() ? "(told)" : "")).toList().toString();
    }
}
