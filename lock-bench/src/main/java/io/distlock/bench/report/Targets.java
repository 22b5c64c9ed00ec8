package io.distlock.bench.report;

import io.distlock.bench.core.Role;
import io.distlock.bench.result.HeldLeasesResult;
import io.distlock.bench.result.ScenarioResult;
import io.distlock.bench.result.StoreResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The performance targets, checked against measured results. Contenders are found by {@link Role}, never by the
 * name shown in the report. Redis: uncontended at least 0.90x raw, contended at least 3x Redisson, hand-off p99
 * under 1 ms (stated beside the raw wake-up floor's p99 of the same run: the host's own wake-up latency).
 * ZooKeeper: at least 1.1x Curator uncontended and 1.0x contended, hand-off p99 and heap per held lease no worse
 * than Curator's. SQL: at least 2x Spring Integration uncontended and 1.5x contended, 0.8x the raw statements.
 * Every store with renewal: held leases under 1 round trip per 100 leases per renewal interval.
 */
public final class Targets {

    private final String uncontendedMany;
    private final String contended;

    /** Targets for a run whose multi-threaded scenario ids are {@code uncontendedMany} and {@code contended}. */
    public Targets(String uncontendedMany, String contended) {
        this.uncontendedMany = uncontendedMany;
        this.contended = contended;
    }

    /** Every target that applies to {@code store}. */
    public List<TargetCheck> check(StoreResult store) {
        List<TargetCheck> checks = new ArrayList<>();
        switch (store.store()) {
            case "redis" -> {
                checks.add(ratio(store, "uncontended-1", Role.RAW, 0.90));
                checks.add(ratio(store, uncontendedMany, Role.RAW, 0.90));
                checks.add(ratio(store, contended, Role.REDISSON, 3.0));
                checks.add(latencyBelow(store, "handoff", 99, 1.0));
            }
            case "zookeeper" -> {
                checks.add(ratio(store, "uncontended-1", Role.CURATOR, 1.1));
                checks.add(ratio(store, uncontendedMany, Role.CURATOR, 1.1));
                checks.add(ratio(store, contended, Role.CURATOR, 1.0));
                checks.add(latencyNoWorse(store, "handoff", 99, Role.CURATOR));
                checks.add(heapNoWorse(store, Role.CURATOR));
            }
            case "mariadb", "postgresql" -> {
                checks.add(ratio(store, "uncontended-1", Role.SPRING_INTEGRATION, 2.0));
                checks.add(ratio(store, uncontendedMany, Role.SPRING_INTEGRATION, 2.0));
                checks.add(ratio(store, contended, Role.SPRING_INTEGRATION, 1.5));
                checks.add(ratio(store, "uncontended-1", Role.RAW, 0.8));
                checks.add(ratio(store, uncontendedMany, Role.RAW, 0.8));
            }
            default -> {
                // the mem: self-check store has no targets
            }
        }
        if (!store.store().equals("mem") && !store.store().equals("zookeeper")) {
            checks.add(heldLeases(store));
        }
        checks.addAll(SemaphoreTargets.forLockScenarios("uncontended-1", uncontendedMany, contended).check(store));
        return checks;
    }

    /** The name in the report of the contender standing for {@code role}. */
    static String label(Role role) {
        return switch (role) {
            case RAW -> "raw";
            case RAW_WAKE_UP -> "raw wake-up floor";
            case REDISSON -> "Redisson RLock";
            case REDISSON_FENCED -> "Redisson RFencedLock";
            case CURATOR -> "Curator InterProcessMutex";
            case CURATOR_FENCED -> "Curator InterProcessMutex + token";
            case SPRING_INTEGRATION -> "Spring Integration JdbcLockRegistry";
            case SHEDLOCK -> "ShedLock";
            case DISTLOCK -> "distlock";
            case REDISSON_SEMAPHORE -> "Redisson RPermitExpirableSemaphore";
            case CURATOR_SEMAPHORE -> "Curator InterProcessSemaphoreV2";
        };
    }

    private TargetCheck ratio(StoreResult store, String scenario, Role base, double atLeast) {
        String baseName = label(base);
        String target = String.format(Locale.ROOT, "%s: distlock >= %.2fx %s", scenario, atLeast, baseName);
        Optional<ScenarioResult> ours = store.firstOf(Role.DISTLOCK, scenario);
        Optional<ScenarioResult> theirs = store.firstOf(base, scenario);
        if (ours.isEmpty() || theirs.isEmpty() || theirs.get().medianOpsPerSecond() == 0) {
            return TargetCheck.notMeasured(store.store(), target, why(ours, theirs, baseName));
        }
        double mine = ours.get().medianOpsPerSecond();
        double other = theirs.get().medianOpsPerSecond();
        double ratio = mine / other;
        String measured = String.format(Locale.ROOT, "%.2fx (%,.0f vs %,.0f ops/s)", ratio, mine, other);
        boolean met = ratio >= atLeast;
        String shortfall = met ? "" : String.format(Locale.ROOT, "%.0f%% short (%.2fx of the %.2fx aimed for)",
                (1 - ratio / atLeast) * 100, ratio, atLeast);
        return checked(store, target, measured, met, shortfall, scenario, ratio);
    }

    private static TargetCheck checked(StoreResult store, String target, String measured, boolean met,
                                       String shortfall, String scenario, double value) {
        return new TargetCheck(store.store(), target, measured,
                met ? TargetCheck.Verdict.MET : TargetCheck.Verdict.MISSED, shortfall,
                met || scenario == null ? null : Role.DISTLOCK, met ? null : scenario, value);
    }

    private static String why(Optional<ScenarioResult> ours, Optional<ScenarioResult> base, String baseName) {
        if (ours.isEmpty()) {
            return "distlock did not run";
        }
        if (base.isEmpty()) {
            return baseName + " did not run";
        }
        return "no throughput";
    }

    private TargetCheck latencyBelow(StoreResult store, String scenario, double percentile, double maxMillis) {
        String target = String.format(Locale.ROOT, "%s: distlock p%.0f < %.1f ms", scenario, percentile, maxMillis);
        Optional<ScenarioResult> ours = store.firstOf(Role.DISTLOCK, scenario);
        if (ours.isEmpty()) {
            return TargetCheck.notMeasured(store.store(), target, "distlock did not run");
        }
        double p = ours.get().latencyMillis(percentile);
        boolean met = p < maxMillis;
        String floor = store.firstOf(Role.RAW_WAKE_UP, scenario).map(f -> String.format(Locale.ROOT,
                "; %s %.3f ms", label(Role.RAW_WAKE_UP), f.latencyMillis(percentile))).orElse("");
        return checked(store, target, String.format(Locale.ROOT, "%.3f ms over %,d hand-offs%s", p,
                ours.get().samples(), floor), met, met ? "" : String.format(Locale.ROOT, "%.2f ms over", p - maxMillis),
                scenario, p);
    }

    private TargetCheck latencyNoWorse(StoreResult store, String scenario, double percentile, Role base) {
        String target = String.format(Locale.ROOT, "%s: distlock p%.0f <= %s's", scenario, percentile, label(base));
        Optional<ScenarioResult> ours = store.firstOf(Role.DISTLOCK, scenario);
        Optional<ScenarioResult> theirs = store.firstOf(base, scenario);
        if (ours.isEmpty() || theirs.isEmpty()) {
            return TargetCheck.notMeasured(store.store(), target, why(ours, theirs, label(base)));
        }
        double mine = ours.get().latencyMillis(percentile);
        double other = theirs.get().latencyMillis(percentile);
        boolean met = mine <= other;
        return checked(store, target, String.format(Locale.ROOT, "%.3f vs %.3f ms", mine, other), met,
                met ? "" : String.format(Locale.ROOT, "%.2f ms over", mine - other), scenario, mine);
    }

    private TargetCheck heapNoWorse(StoreResult store, Role base) {
        String target = "held leases: distlock heap per lease <= " + label(base) + "'s";
        Optional<HeldLeasesResult> ours = held(store, Role.DISTLOCK);
        Optional<HeldLeasesResult> theirs = held(store, base);
        if (ours.isEmpty() || theirs.isEmpty()) {
            return TargetCheck.notMeasured(store.store(), target,
                    (ours.isEmpty() ? "distlock" : label(base)) + " held no leases");
        }
        long mine = ours.get().heapBytesPerLease();
        long other = theirs.get().heapBytesPerLease();
        boolean met = mine <= other;
        return checked(store, target, String.format(Locale.ROOT, "%,d vs %,d B", mine, other), met,
                met ? "" : String.format(Locale.ROOT, "%,d B more", mine - other), null, mine);
    }

    /**
     * The held-leases rows to check: scenario 4's, or where it did not run, the held-leases curve's, largest count
     * first.
     */
    private static java.util.List<HeldLeasesResult> heldRows(StoreResult store) {
        if (!store.heldLeases().isEmpty()) {
            return store.heldLeases();
        }
        java.util.List<HeldLeasesResult> curve = new ArrayList<>(store.heldCurve());
        curve.sort((a, b) -> Integer.compare(b.leases(), a.leases()));
        return curve;
    }

    private static Optional<HeldLeasesResult> held(StoreResult store, Role role) {
        return heldRows(store).stream()
                .filter(h -> h.failure() == null && h.intervals() > 0 && store.roleOf(h.contender()) == role)
                .findFirst();
    }

    private TargetCheck heldLeases(StoreResult store) {
        String target = "held leases: distlock < 1 round trip per 100 leases per renewal interval";
        Optional<HeldLeasesResult> ours = heldRows(store).stream()
                .filter(h -> h.contender().equals("distlock") || store.roleOf(h.contender()) == Role.DISTLOCK)
                .findFirst();
        if (ours.isEmpty() || ours.get().intervals() == 0) {
            return TargetCheck.notMeasured(store.store(), target,
                    ours.map(h -> "failed: " + h.failure()).orElse("distlock did not run"));
        }
        HeldLeasesResult h = ours.get();
        double per100 = h.roundTripsPer100LeasesPerInterval();
        boolean met = per100 < 1.0 && h.lostAtRelease() == 0;
        String measured = String.format(Locale.ROOT, "%.4f (%.1f round trips per interval for %,d leases)%s", per100,
                h.roundTripsPerInterval(), h.leases(),
                h.lostAtRelease() == 0 ? "" : ", " + h.lostAtRelease() + " lost");
        return checked(store, target, measured, met, met ? "" : String.format(Locale.ROOT, "%.2fx the limit", per100),
                null, per100);
    }
}
