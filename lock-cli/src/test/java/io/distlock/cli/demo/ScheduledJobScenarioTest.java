package io.distlock.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LeaseModel;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduled-job scenario with four services as separate JVMs on the shared Redis server: without the lock every
 * tick's job runs on every service; with {@code tryRun(minHeld, task)} exactly once per tick, under increasing
 * fencing tokens. The {@code tryRun(task)} row depends on timing, so it is only reported and checked for what holds
 * in every interleaving (at least once, at most four times a tick).
 */
class ScheduledJobScenarioTest {

    private static final String REDIS = "redis://127.0.0.1:6379";

    @TempDir
    Path dir;

    private final StringWriter printed = new StringWriter();
    private final ServiceGroup services = new ServiceGroup();

    @AfterEach
    void stopServices() {
        services.close();
    }

    @Test
    void withTryRunMinHeldEachTickRunsOnceWithoutTheLockOncePerService() {
        DemoContext ctx = new DemoContext(REDIS, dir, new PrintWriter(printed, true),
                UUID.randomUUID().toString().substring(0, 8), LeaseModel.TIME, null, 4, services);
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
