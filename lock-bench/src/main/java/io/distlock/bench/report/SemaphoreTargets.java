package io.distlock.bench.report;

import io.distlock.bench.distlock.DistlockSemaphoreContender;
import io.distlock.bench.core.Role;
import io.distlock.bench.redis.RedissonSemaphoreContender;
import io.distlock.bench.result.ScenarioResult;
import io.distlock.bench.result.StoreResult;
import io.distlock.bench.scenario.SemaphoreScenario;
import io.distlock.bench.zookeeper.CuratorSemaphoreContender;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The semaphore targets, checked against measured results: distlock's semaphore at least 2x Redisson's
 * {@code RPermitExpirableSemaphore} on Redis and Curator's {@code InterProcessSemaphoreV2} on ZooKeeper, in every
 * semaphore scenario (uncontended at 1 and many threads, contended).
 */
public final class SemaphoreTargets {

    private static final double AT_LEAST = 2.0;

    private final List<String> scenarios;

    private SemaphoreTargets(List<String> scenarios) {
        this.scenarios = List.copyOf(scenarios);
    }

    /** Targets for the semaphore scenarios that run the loops of these lock scenarios. */
    public static SemaphoreTargets forLockScenarios(String... lockScenarioIds) {
        return new SemaphoreTargets(Arrays.stream(lockScenarioIds).map(SemaphoreScenario::idOf).toList());
    }

    /** Every semaphore target that applies to {@code store}. */
    public List<TargetCheck> check(StoreResult store) {
        Role other = switch (store.store()) {
            case "redis" -> Role.REDISSON_SEMAPHORE;
            case "zookeeper" -> Role.CURATOR_SEMAPHORE;
            default -> null;
        };
        List<TargetCheck> checks = new ArrayList<>();
        if (other != null) {
            scenarios.forEach(s -> checks.add(ratio(store, s, other)));
        }
        return checks;
    }

    private static TargetCheck ratio(StoreResult store, String scenario, Role otherRole) {
        String ours = DistlockSemaphoreContender.NAME;
        String other = otherRole == Role.REDISSON_SEMAPHORE ? RedissonSemaphoreContender.NAME
                : CuratorSemaphoreContender.NAME;
        String target = String.format(Locale.ROOT, "%s: %s >= %.2fx %s", scenario, ours, AT_LEAST, other);
        Optional<ScenarioResult> mine = store.firstOf(Role.DISTLOCK, scenario).filter(ScenarioResult::usable);
        Optional<ScenarioResult> theirs = store.firstOf(otherRole, scenario).filter(ScenarioResult::usable);
        if (mine.isEmpty() || theirs.isEmpty() || theirs.get().medianOpsPerSecond() == 0) {
            String why = mine.isEmpty() ? ours + " did not run" : theirs.isEmpty() ? other + " did not run"
                    : "no throughput";
            return new TargetCheck(store.store(), target, why, TargetCheck.Verdict.NOT_MEASURED, "", null, null,
                    Double.NaN);
        }
        double a = mine.get().medianOpsPerSecond();
        double b = theirs.get().medianOpsPerSecond();
        double ratio = a / b;
        boolean met = ratio >= AT_LEAST;
        return new TargetCheck(store.store(), target,
                String.format(Locale.ROOT, "%.2fx (%,.0f vs %,.0f ops/s)", ratio, a, b),
                met ? TargetCheck.Verdict.MET : TargetCheck.Verdict.MISSED,
                met ? "" : String.format(Locale.ROOT, "%.0f%% short (%.2fx of the %.2fx aimed for)",
                        (1 - ratio / AT_LEAST) * 100, ratio, AT_LEAST),
                met ? null : Role.DISTLOCK, scenario, ratio);
    }
}
