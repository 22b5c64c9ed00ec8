package io.distlock.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The short versions of the leadership, semaphore and SQL-fence workloads in {@code ./mvnw verify}: two faults each,
 * on a Redis server of the run's own, every bar asserted. The full runs are {@code distlock chaos --workload ...}.
 */
@Execution(ExecutionMode.CONCURRENT)
class WorkloadShortRunTest {

    private static WorkloadResult run(Workload workload, String store, Scenario scenario) {
        WorkloadResult result = new WorkloadSuite(workload, 3, 2, Duration.ofSeconds(3))
                .runOne(ChaosMain.stores().get(store), scenario);
        assertThat(result).as("scenario applies").isNotNull();
        assertThat(result.markdownRow()).doesNotContain("run failed");
        assertThat(result.faults()).as("faults injected").isEqualTo(2);
        System.out.print(workload.cliName() + " " + result.markdownRow()); // the figures, for the build log
        return result;
    }

    @Test
    void aFrozenRedisLeaderIsNeverASilentSecondLeaderAndItsWritesAreRefused() {
        LeadershipResult r = (LeadershipResult) run(Workload.LEADERSHIP, "redis", Scenario.CLIENT_PAUSE);
        assertThat(r.elections()).as("elections in " + r).isGreaterThanOrEqualTo(2);
        assertThat(r.silentDoubleLeaders()).as("silent double leaders in " + r).isZero();
        assertThat(r.termsReissued()).as("terms re-issued in " + r).isZero();
        assertThat(r.termsOutOfOrder()).as("terms out of order in " + r).isZero();
        assertThat(r.staleWritesAccepted()).as("stale writes accepted in " + r).isZero();
        assertThat(r.lostUpdates()).as("lost updates in " + r).isZero();
        assertThat(r.meetsBars()).as("bars of " + r).isTrue();
    }

    @Test
    void aRedisSemaphoreOfTwoNeverHasMoreThanTwoSilentHoldersWhenHoldersAreKilled() {
        SemaphoreResult r = (SemaphoreResult) run(Workload.SEMAPHORE, "redis", Scenario.CLIENT_CRASH);
        assertThat(r.acquiredOk()).as("permits in " + r).isPositive();
        assertThat(r.maxSilentHolders()).as("max silent holders in " + r).isLessThanOrEqualTo(2);
        assertThat(r.silentAboveLimit()).as("silent holders above the limit in " + r).isZero();
        assertThat(r.tokensReissued()).as("tokens re-issued in " + r).isZero();
        assertThat(r.meetsBars()).as("bars of " + r).isTrue();
    }

    @Test
    void aFrozenRedisLockHolderWritingToPostgresThroughSqlFenceNeverCommitsStale() {
        SqlFenceResult r = (SqlFenceResult) run(Workload.SQL_FENCE_POSTGRESQL, "redis", Scenario.CLIENT_PAUSE);
        assertThat(r.commits()).as("commits in " + r).isPositive();
        assertThat(r.staleCommits()).as("stale writes accepted in " + r).isZero();
        assertThat(r.lostUpdates()).as("lost updates in " + r).isZero();
        assertThat(r.counter()).as("counter of " + r).isGreaterThanOrEqualTo(r.commits());
        assertThat(r.silentOverlaps()).as("silent overlaps in " + r).isZero();
        assertThat(r.tokensReissued()).as("tokens re-issued in " + r).isZero();
        assertThat(r.meetsBars()).as("bars of " + r).isTrue();
    }
}
