package io.distlock.bench.report;

import io.distlock.bench.core.Role;
import io.distlock.bench.result.CostResult;
import io.distlock.bench.result.OpCost;
import io.distlock.bench.result.ScenarioResult;
import io.distlock.bench.result.StoreResult;
import io.distlock.bench.scenario.CostProbe;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Stream;

/**
 * Why an issue #33 target missed, in one short line computed from the run's counted figures (round trips, requests,
 * pushed messages, client CPU and allocation per operation) and the round trip the run actually paid: never prose
 * numbers, so the line moves with the figures it explains.
 */
final class MissReasons {

    private MissReasons() {
    }

    /**
     * What one round trip cost in the run at the target round-trip time.
     *
     * @param millis its length in ms
     * @param source how it was found, for the report
     */
    record RoundTrip(double millis, String source) {
    }

    /**
     * The counted cost of {@code role} in {@code loop}: from the counted run at the target round trip if there was
     * one (a contended loop's counts move with the delay), else from the counted run without delay.
     */
    static Optional<CostResult> counted(StoreResult store, Role role, String loop) {
        List<CostResult> atTarget = store.costsAtRoundTripTime().getOrDefault(ScaleTargets.TARGET_RTT, List.of());
        return Stream.concat(atTarget.stream(), store.costs().stream())
                .filter(c -> c.role() == role && c.scenario().equals(loop) && c.usable()).findFirst();
    }

    /**
     * The round trip the run at the target round-trip time paid: the raw limit's (else distlock's) time per
     * uncontended-1 pair there divided by its counted round trips per pair (the proxy's delay plus what the host
     * adds to every round trip); the nominal round trip when either figure is missing.
     */
    static RoundTrip effective(StoreResult store, StoreResult at) {
        for (Role role : List.of(Role.RAW, Role.DISTLOCK)) {
            Optional<ScenarioResult> timed = at == null ? Optional.empty() : at.firstOf(role, "uncontended-1");
            Optional<CostResult> pair = counted(store, role, CostProbe.PAIR);
            if (timed.isPresent() && pair.isPresent() && timed.get().medianOpsPerSecond() > 0) {
                double perPair = pair.get().median(OpCost::roundTrips);
                double millis = 1000 / timed.get().medianOpsPerSecond() / perPair;
                return new RoundTrip(millis, String.format(Locale.ROOT, "effective %.2f ms round trip (%s "
                        + "uncontended-1 pair time / %.2f round trips)", millis, role == Role.RAW ? "raw" : "distlock",
                        perPair));
            }
        }
        return new RoundTrip(ScaleTargets.TARGET_RTT_MS, "nominal " + ScaleTargets.TARGET_RTT + " round trip");
    }

    /** The pair takes more round trips than the protocol needs. */
    static String pairRoundTrips(CostResult pair, int fewest) {
        return String.format(Locale.ROOT, "%.2f requests in %.2f round trips: %.2f round trips more than the %d a "
                        + "fenced pair needs", pair.median(OpCost::requests), pair.median(OpCost::roundTrips),
                pair.median(OpCost::roundTrips) - fewest, fewest);
    }

    /** Client CPU or allocation per pair above another library's: the requests per pair, and the figure per request. */
    static String perRequest(CostResult ours, List<CostResult> worse, boolean cpu) {
        StringBuilder why = new StringBuilder();
        double ourRequests = ours.median(OpCost::requests);
        double ourFigure = cpu ? ours.median(OpCost::clientCpuMicros) : ours.median(OpCost::clientBytes);
        for (CostResult other : worse) {
            double theirRequests = other.median(OpCost::requests);
            double theirFigure = cpu ? other.median(OpCost::clientCpuMicros) : other.median(OpCost::clientBytes);
            why.append(why.isEmpty() ? "" : "; ").append(String.format(Locale.ROOT, cpu
                            ? "%.2f requests per pair vs %s %.2f; per request %.1f vs %.1f µs"
                            : "%.2f requests per pair vs %s %.2f; per request %,.0f vs %,.0f B", ourRequests,
                    other.contender(), theirRequests, ourFigure / ourRequests, theirFigure / theirRequests));
        }
        return why.toString();
    }

    /**
     * A throughput ratio at the target round trip missed: the round trips per operation of both and what the aim
     * needs in operations per second; contended, against the ceiling of one round trip per acquisition at the round
     * trip the run paid; uncontended, the ratio the round trips allow and the client CPU per pair.
     */
    static String ratio(StoreResult store, StoreResult at, String scenario, Role base, String baseName, double aim,
                        double theirOps) {
        boolean contended = scenario.startsWith("contended");
        String loop = contended ? CostProbe.CONTENDED : CostProbe.PAIR;
        String per = contended ? "acquisition" : "pair";
        Optional<CostResult> ours = counted(store, Role.DISTLOCK, loop);
        if (ours.isEmpty()) {
            return "no counted " + loop + " loop of distlock in this run";
        }
        Optional<CostResult> theirs = counted(store, base, loop);
        RoundTrip rt = effective(store, at);
        double ourRt = ours.get().median(OpCost::roundTrips);
        StringBuilder why = new StringBuilder(String.format(Locale.ROOT, "distlock %.2f round trips, %.2f requests "
                + "per %s", ourRt, ours.get().median(OpCost::requests), per));
        theirs.ifPresent(t -> why.append(String.format(Locale.ROOT, " vs %s %.2f, %.2f", baseName,
                t.median(OpCost::roundTrips), t.median(OpCost::requests))));
        double needed = aim * theirOps;
        if (contended) {
            // a lock that writes a token per acquisition takes at least one round trip per acquisition
            double ceiling = 1000 / rt.millis();
            why.append(String.format(Locale.ROOT, "; %.2fx needs %,.0f ops/s, %s the 1-round-trip-per-acquisition "
                    + "ceiling of %,.0f ops/s at the %s", aim, needed, needed > ceiling ? "above" : "below", ceiling,
                    rt.source()));
        } else if (theirs.isPresent()) {
            // at a real round trip a pair's time is its round trips: their ratio caps the throughput ratio
            why.append(String.format(Locale.ROOT, ": round trips alone allow at most %.2fx; %.2fx needs %,.0f ops/s; "
                    + "client CPU per pair %.0f vs %.0f µs", theirs.get().median(OpCost::roundTrips) / ourRt, aim,
                    needed, ours.get().median(OpCost::clientCpuMicros), theirs.get().median(OpCost::clientCpuMicros)));
        } else {
            why.append(String.format(Locale.ROOT, "; %.2fx needs %,.0f ops/s, distlock's round trips allow %,.0f at "
                    + "the %s", aim, needed, 1000 / (rt.millis() * ourRt), rt.source()));
        }
        return why.toString();
    }

    /**
     * A hand-off p99 missed: the round trips on the hand-off's critical path (the release and the acquire of a pair,
     * and half a round trip for each pushed wake-up), what they take at the round trip the run paid, and the rest
     * of the p99, which round trips at their median cost do not explain (server time, thread wake-ups, scheduling).
     */
    static String handoff(StoreResult store, StoreResult at, double p99, OptionalDouble floor) {
        Optional<CostResult> pair = counted(store, Role.DISTLOCK, CostProbe.PAIR);
        if (pair.isEmpty()) {
            return "no counted pair of distlock in this run";
        }
        double pushes = counted(store, Role.DISTLOCK, CostProbe.HANDOFF).map(h -> h.median(OpCost::pushes))
                .orElse(0.0);
        double path = pair.get().median(OpCost::roundTrips) + pushes / 2;
        RoundTrip rt = effective(store, at);
        double millis = path * rt.millis();
        return String.format(Locale.ROOT, "critical path %.2f round trips (release + acquire %.2f, %.2f pushed "
                        + "wake-ups at half a round trip) = %.2f ms at the %s; the other %.2f ms of the p99 is its tail "
                        + "beyond round trips at their median cost: server time, thread wake-ups and scheduling on "
                        + "this host%s",
                path, pair.get().median(OpCost::roundTrips), pushes, millis, rt.source(), p99 - millis,
                floor.isPresent() ? String.format(Locale.ROOT, " (the raw wake-up floor's p99 in this run: %.2f ms)",
                        floor.getAsDouble()) : "");
    }

    /** Round trips per acquisition grew with the waiters: the extra round trips over one client's pair. */
    static String waiters(StoreResult store, OpCost first, int firstClients, OpCost last, int lastClients) {
        double alone = counted(store, Role.DISTLOCK, CostProbe.PAIR).map(p -> p.median(OpCost::roundTrips))
                .orElse(Double.NaN);
        return String.format(Locale.ROOT, "round trips beyond a pair's %.2f: %.2f per acquisition at %d clients, "
                        + "%.2f at %d (pushed %.2f -> %.2f): wake-ups that lose and retry", alone,
                first.roundTrips() - alone, firstClients, last.roundTrips() - alone, lastClients, first.pushes(),
                last.pushes());
    }

    /** Entries of names used once outlived the lease and the grace. */
    static String namesLeft(long left, long afterRelease) {
        return String.format(Locale.ROOT, "%,d of the %,d entries left at release were not reclaimed (%.0f%%)", left,
                afterRelease, afterRelease <= 0 ? 0 : 100.0 * left / afterRelease);
    }
}
