package io.distlock.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.bench.core.Role;
import io.distlock.bench.core.Sample;
import io.distlock.bench.result.ScenarioResult;
import io.distlock.bench.result.StoreResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Target verdicts from given results: met at or above the ratio, missed below it with the shortfall stated. */
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
        zk.scenarios().add(result("Curator InterProcessSemaphoreV2", Role.CURATOR_SEMAPHORE, "semaphore-uncontended-1", 200));
        zk.scenarios().add(result("distlock Semaphore", Role.DISTLOCK, "semaphore-contended-8x2", 300));
        zk.scenarios().add(result("Curator InterProcessSemaphoreV2", Role.CURATOR_SEMAPHORE, "semaphore-contended-8x2", 200));
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
    void medianOfThreeRunsIsTheMiddleOne() {
        ScenarioResult r = new ScenarioResult("distlock", Role.DISTLOCK, "uncontended-1", true);
        r.add(10, 10, Sample.newHistogram(), 0);
        r.add(30, 30, Sample.newHistogram(), 0);
        r.add(20, 20, Sample.newHistogram(), 0);

        assertThat(r.medianOpsPerSecond()).isEqualTo(20);
    }

    private static ScenarioResult result(String name, Role role, String scenario, double opsPerSecond) {
        ScenarioResult r = new ScenarioResult(name, role, scenario, true);
        r.add(opsPerSecond, (long) opsPerSecond, Sample.newHistogram(), 0);
        return r;
    }
}
