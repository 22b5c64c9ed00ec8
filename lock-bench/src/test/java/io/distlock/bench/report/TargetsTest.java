package io.distlock.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.bench.core.Role;
import io.distlock.bench.core.Sample;
import io.distlock.bench.result.ScenarioResult;
import io.distlock.bench.result.StoreResult;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * Target verdicts from given results: met at or above the ratio, missed below it with the shortfall stated; the Redis
 * hand-off verdict states the raw wake-up floor measured beside it.
 */
class TargetsTest {

    private final Targets targets = new Targets("uncontended-8", "contended-8x2");

    @Test
    void redisUncontendedRatioToRawIsMetOrMissedWithShortfall() {
        StoreResult redis = new StoreResult("redis", "test");
        redis.scenarios().add(result("distlock", Role.DISTLOCK, "uncontended-1", 900));
        redis.scenarios().add(result("raw", Role.RAW, "uncontended-1", 1000));
        redis.scenarios().add(result("distlock", Role.DISTLOCK, "uncontended-8", 600));
        redis.scenarios().add(result("raw", Role.RAW, "uncontended-8", 1000));

        List<TargetCheck> checks = targets.check(redis);

        assertThat(checks.get(0).verdict()).isEqualTo(TargetCheck.Verdict.MET);
        assertThat(checks.get(0).measured()).startsWith("0.90x");
        assertThat(checks.get(1).verdict()).isEqualTo(TargetCheck.Verdict.MISSED);
        assertThat(checks.get(1).shortfall()).startsWith("33% short");
        assertThat(checks.get(2).verdict()).as("no Redisson result").isEqualTo(TargetCheck.Verdict.NOT_MEASURED);
    }

    @Test
    void semaphoreTargetsCompareDistlocksSemaphoreWithTheStoresOtherSemaphore() {
        StoreResult zk = new StoreResult("zookeeper", "test");
        zk.scenarios().add(result("distlock Semaphore", Role.DISTLOCK, "semaphore-uncontended-1", 500));
        zk.scenarios().add(result("Curator InterProcessSemaphoreV2", Role.CURATOR_SEMAPHORE,
                "semaphore-uncontended-1", 200));
        zk.scenarios().add(result("distlock Semaphore", Role.DISTLOCK, "semaphore-contended-8x2", 300));
        zk.scenarios().add(result("Curator InterProcessSemaphoreV2", Role.CURATOR_SEMAPHORE,
                "semaphore-contended-8x2", 200));
        zk.scenarios().add(result("distlock", Role.DISTLOCK, "semaphore-uncontended-8", 9000));

        List<TargetCheck> semaphore = targets.check(zk).stream()
                .filter(c -> c.target().startsWith("semaphore-")).toList();

        assertThat(semaphore).extracting(TargetCheck::target).containsExactly(
                "semaphore-uncontended-1: distlock Semaphore >= 2.00x Curator InterProcessSemaphoreV2",
                "semaphore-uncontended-8: distlock Semaphore >= 2.00x Curator InterProcessSemaphoreV2",
                "semaphore-contended-8x2: distlock Semaphore >= 2.00x Curator InterProcessSemaphoreV2");
        assertThat(semaphore.get(0).verdict()).isEqualTo(TargetCheck.Verdict.MET);
        assertThat(semaphore.get(0).measured()).startsWith("2.50x");
        assertThat(semaphore.get(1).verdict()).as("the lock's figure is not the semaphore's")
                .isEqualTo(TargetCheck.Verdict.NOT_MEASURED);
        assertThat(semaphore.get(2).verdict()).isEqualTo(TargetCheck.Verdict.MISSED);
        assertThat(semaphore.get(2).shortfall()).startsWith("25% short");
        assertThat(semaphore.get(2).contender()).isEqualTo(Role.DISTLOCK);
    }

    @Test
    void referencesAreFoundByRoleNotByTheNameShownInTheReport() {
        StoreResult postgres = new StoreResult("postgresql", "test");
        postgres.scenarios().add(result("distlock (renamed)", Role.DISTLOCK, "contended-8x2", 1600));
        postgres.scenarios().add(result("ShedLock", Role.SHEDLOCK, "contended-8x2", 5000));
        postgres.scenarios().add(result("Spring, under another name", Role.SPRING_INTEGRATION, "contended-8x2", 1000));

        TargetCheck contended = targets.check(postgres).stream()
                .filter(c -> c.target().startsWith("contended-8x2")).findFirst().orElseThrow();

        assertThat(contended.verdict()).isEqualTo(TargetCheck.Verdict.MET);
        assertThat(contended.measured()).startsWith("1.60x (1,600 vs 1,000 ops/s)");
        assertThat(contended.value()).isEqualTo(1.6);
    }

    @Test
    void redisHandoffVerdictStatesTheWakeUpFloorOfTheSameRunWithoutChangingTheRule() {
        StoreResult redis = new StoreResult("redis", "test");
        redis.scenarios().add(handoff("distlock", Role.DISTLOCK, 4_000_000));
        ScenarioResult floor = handoff("floor", Role.RAW_WAKE_UP, 3_500_000);
        redis.scenarios().add(floor);

        TargetCheck handoff = handoffCheck(redis);

        assertThat(handoff.target()).isEqualTo("handoff: distlock p99 < 1.0 ms");
        assertThat(handoff.verdict()).as("the floor explains a miss, it does not excuse it")
                .isEqualTo(TargetCheck.Verdict.MISSED);
        assertThat(handoff.measured()).startsWith("4.0").endsWith(String.format(Locale.ROOT,
                " ms over 1 hand-offs; raw wake-up floor %.3f ms", floor.latencyMillis(99)));
        assertThat(floor.latencyMillis(99)).isBetween(3.49, 3.51);
    }

    @Test
    void redisHandoffVerdictWithoutTheFloorStatesDistlockAlone() {
        StoreResult redis = new StoreResult("redis", "test");
        redis.scenarios().add(handoff("distlock", Role.DISTLOCK, 500_000));

        TargetCheck handoff = handoffCheck(redis);

        assertThat(handoff.verdict()).isEqualTo(TargetCheck.Verdict.MET);
        assertThat(handoff.measured()).startsWith("0.5").endsWith(" ms over 1 hand-offs");
    }

    @Test
    void medianOfThreeRunsIsTheMiddleOne() {
        ScenarioResult r = new ScenarioResult("distlock", Role.DISTLOCK, "uncontended-1", true);
        r.add(10, 10, Sample.newHistogram(), 0);
        r.add(30, 30, Sample.newHistogram(), 0);
        r.add(20, 20, Sample.newHistogram(), 0);

        assertThat(r.medianOpsPerSecond()).isEqualTo(20);
    }

    private TargetCheck handoffCheck(StoreResult store) {
        return targets.check(store).stream().filter(c -> c.target().startsWith("handoff")).findFirst().orElseThrow();
    }

    /** A hand-off result of one sample of {@code latencyNanos}. */
    static ScenarioResult handoff(String name, Role role, long latencyNanos) {
        ScenarioResult r = new ScenarioResult(name, role, "handoff", false);
        Histogram latencies = Sample.newHistogram();
        latencies.recordValue(latencyNanos);
        r.add(1, 1, latencies, 0);
        return r;
    }

    static ScenarioResult result(String name, Role role, String scenario, double opsPerSecond) {
        ScenarioResult r = new ScenarioResult(name, role, scenario, true);
        r.add(opsPerSecond, (long) opsPerSecond, Sample.newHistogram(), 0);
        return r;
    }
}
