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
 * The targets of issue 8, checked against measured results: Redis uncontended at least 0.85x raw and contended at
 * least 2x Redisson with p99 hand-off under 2 ms; ZooKeeper at least 1.2x Curator uncontended and 1.0x contended;
 * SQL at least 2x Spring Integration and 0.8x the raw statements; held leases under 1 round trip per 100 leases per
 * renewal interval.
 */
public final class Targets {

    private static final String DISTLOCK = "distlock";

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
                checks.add(vsRole(store, "uncontended-1", Role.RAW, 0.85));
                checks.add(vsRole(store, uncontendedMany, Role.RAW, 0.85));
                checks.add(vsNamed(store, contended, "Redisson RLock", 2.0));
                checks.add(latencyBelow(store, "handoff", 99, 2.0));
            }
            case "zookeeper" -> {
                checks.add(vsNamed(store, "uncontended-1", "Curator InterProcessMutex", 1.2));
                checks.add(vsNamed(store, uncontendedMany, "Curator InterProcessMutex", 1.2));
                checks.add(vsNamed(store, contended, "Curator InterProcessMutex", 1.0));
            }
            case "mariadb", "postgresql" -> {
                checks.add(vsNamed(store, "uncontended-1", "Spring Integration JdbcLockRegistry", 2.0));
                checks.add(vsNamed(store, uncontendedMany, "Spring Integration JdbcLockRegistry", 2.0));
                checks.add(vsNamed(store, contended, "Spring Integration JdbcLockRegistry", 2.0));
                checks.add(vsRole(store, "uncontended-1", Role.RAW, 0.8));
                checks.add(vsRole(store, uncontendedMany, Role.RAW, 0.8));
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

    private TargetCheck vsRole(StoreResult store, String scenario, Role role, double atLeast) {
        return ratio(store, scenario, store.firstOf(role, scenario), "raw", atLeast);
    }

    private TargetCheck vsNamed(StoreResult store, String scenario, String other, double atLeast) {
        return ratio(store, scenario, store.find(other, scenario).filter(ScenarioResult::usable), other, atLeast);
    }

    private TargetCheck ratio(StoreResult store, String scenario, Optional<ScenarioResult> base, String baseName,
                              double atLeast) {
        String target = String.format(Locale.ROOT, "%s: distlock >= %.2fx %s", scenario, atLeast, baseName);
        Optional<ScenarioResult> ours = store.find(DISTLOCK, scenario).filter(ScenarioResult::usable);
        if (ours.isEmpty() || base.isEmpty() || base.get().medianOpsPerSecond() == 0) {
            return new TargetCheck(store.store(), target, why(ours, base, baseName), TargetCheck.Verdict.NOT_MEASURED,
                    "", null, null);
        }
        double mine = ours.get().medianOpsPerSecond();
        double theirs = base.get().medianOpsPerSecond();
        double ratio = mine / theirs;
        String measured = String.format(Locale.ROOT, "%.2fx (%,.0f vs %,.0f ops/s)", ratio, mine, theirs);
        boolean met = ratio >= atLeast;
        String shortfall = met ? "" : String.format(Locale.ROOT, "%.0f%% short (%.2fx of the %.2fx aimed for)",
                (1 - ratio / atLeast) * 100, ratio, atLeast);
        return new TargetCheck(store.store(), target, measured, met ? TargetCheck.Verdict.MET : TargetCheck.Verdict.MISSED,
                shortfall, met ? null : DISTLOCK, scenario);
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
        Optional<ScenarioResult> ours = store.find(DISTLOCK, scenario).filter(ScenarioResult::usable);
        if (ours.isEmpty()) {
            return new TargetCheck(store.store(), target, "distlock did not run", TargetCheck.Verdict.NOT_MEASURED,
                    "", null, null);
        }
        double p = ours.get().latencyMillis(percentile);
        boolean met = p < maxMillis;
        return new TargetCheck(store.store(), target,
                String.format(Locale.ROOT, "%.3f ms over %,d hand-offs", p, ours.get().samples()),
                met ? TargetCheck.Verdict.MET : TargetCheck.Verdict.MISSED,
                met ? "" : String.format(Locale.ROOT, "%.2f ms over", p - maxMillis), met ? null : DISTLOCK, scenario);
    }

    private TargetCheck heldLeases(StoreResult store) {
        String target = "held leases: distlock < 1 round trip per 100 leases per renewal interval";
        Optional<HeldLeasesResult> ours = store.heldLeases().stream()
                .filter(h -> h.contender().equals(DISTLOCK)).findFirst();
        if (ours.isEmpty() || ours.get().intervals() == 0) {
            return new TargetCheck(store.store(), target,
                    ours.map(h -> "failed: " + h.failure()).orElse("distlock did not run"),
                    TargetCheck.Verdict.NOT_MEASURED, "", null, null);
        }
        HeldLeasesResult h = ours.get();
        double per100 = h.roundTripsPer100LeasesPerInterval();
        boolean met = per100 < 1.0 && h.lostAtRelease() == 0;
        String measured = String.format(Locale.ROOT, "%.4f (%.1f round trips per interval for %,d leases)%s", per100,
                h.roundTripsPerInterval(), h.leases(), h.lostAtRelease() == 0 ? "" : ", " + h.lostAtRelease() + " lost");
        return new TargetCheck(store.store(), target, measured, met ? TargetCheck.Verdict.MET : TargetCheck.Verdict.MISSED,
                met ? "" : String.format(Locale.ROOT, "%.2fx the limit", per100), null, null);
    }
}
