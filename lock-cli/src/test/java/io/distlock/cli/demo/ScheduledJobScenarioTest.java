package io.distlock.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LeaseModel;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The scheduled-job scenario with four services as separate JVMs on the shared Redis server: without the lock every
 * tick's job runs on every service; with {@code tryRun(minHeld, task)} exactly once per tick, under increasing
 * fencing tokens. The {@code tryRun(task)} row depends on timing, so it is only reported and checked for what holds
 * in every interleaving (at least once, at most four times a tick).
 */
class ScheduledJobScenarioTest extends ScenarioOnSharedRedis {

    @Test
    void withTryRunMinHeldEachTickRunsOnceWithoutTheLockOncePerService() {
        DemoContext ctx = context(LeaseModel.TIME, 4);
        List<ScheduledJobRun> runs = new ScheduledJobScenario().runs(ctx);

        ScheduledJobRun unlocked = runs.get(0);
        ScheduledJobRun tryRun = runs.get(1);
        ScheduledJobRun minHeld = runs.get(2);
        System.out.println("scheduled job: without lock " + unlocked.runs().size() + " runs, tryRun(task) "
                + tryRun.runs().size() + ", tryRun(minHeld, task) " + minHeld.runs().size() + " for "
                + ScheduledJobScenario.TICKS + " ticks");
        assertThat(unlocked.byTick().values()).allSatisfy(tick -> assertThat(tick).hasSize(4));
        assertThat(tryRun.byTick().values()).allSatisfy(tick -> assertThat(tick).hasSizeBetween(1, 4));
        assertThat(minHeld.exactlyOncePerTick()).as(minHeld.toString()).isTrue();
        assertThat(minHeld.runs()).extracting(ScheduledJobRun.JobRun::fencingToken).isSorted()
                .doesNotHaveDuplicates();
    }
}
