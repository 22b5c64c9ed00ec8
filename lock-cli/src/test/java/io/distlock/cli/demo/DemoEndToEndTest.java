package io.distlock.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LeaseModel;
import io.distlock.cli.DistlockMain;
import io.distlock.cli.ExitCodes;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The demo end to end, with its services as separate JVMs: the scenarios one by one on the shared Redis server
 * (127.0.0.1:6379), and the whole {@code distlock demo} as a new user runs it, on its embedded ZooKeeper. Only what
 * is guaranteed is asserted: with the lock exactly one redemption and a balance of 3, sold + stock = 10, the stale
 * write refused, the rate-limited API never over its limit of 2 with the semaphore. Whether the race shows
 * without the lock depends on timing, so that run is only reported (and
 * checked for what holds in every interleaving: each deduction was whole).
 */
class DemoEndToEndTest extends ScenarioOnSharedRedis {

    @Test
    void pointsWithTheLockRedeemExactlyOnceLeavingThree() {
        List<RaceRun> runs = new PointsScenario().races(context(LeaseModel.TIME, 0));
        RaceRun without = runs.get(0);
        RaceRun with = runs.get(1);

        System.out.println("points without lock: " + without.successes() + " redemptions, balance "
                + without.remaining() + (without.remaining() < 0 ? " (the race happened)" : " (no race this time)"));
        assertThat(without.locked()).isFalse();
        assertThat(without.remaining()).isEqualTo(PointsScenario.POINTS - PointsScenario.COST * without.successes());

        assertThat(with.locked()).isTrue();
        assertThat(with.spends()).hasSize(2);
        assertThat(with.successes()).isEqualTo(1);
        assertThat(with.remaining()).isEqualTo(3);
        assertThat(with.spends()).filteredOn(s -> !s.succeeded()).singleElement()
                .satisfies(refused -> assertThat(refused.seen()).isEqualTo(3));
        assertThat(with.spends()).extracting(RaceRun.Spend::fencingToken).doesNotHaveDuplicates()
                .allSatisfy(token -> assertThat(token).isPositive());
    }

    @Test
    void flashSaleWithTheLockNeverOversells() {
        List<RaceRun> runs = new FlashSaleScenario().races(context(LeaseModel.TIME, 0), new long[] {6, 5, 4});
        RaceRun without = runs.get(0);
        RaceRun with = runs.get(1);

        System.out.println("flash sale without lock: sold " + without.spent() + ", stock " + without.remaining());
        assertThat(without.spent() + without.remaining()).isEqualTo(FlashSaleScenario.STOCK);

        assertThat(with.remaining()).isNotNegative();
        assertThat(with.spent() + with.remaining()).isEqualTo(FlashSaleScenario.STOCK);
        assertThat(with.successes()).isBetween(1L, 2L);
    }

    @Test
    void fencingRefusesTheFrozenHoldersLateWrite() {
        FencingScenario.Outcome outcome = new FencingScenario().play(context(LeaseModel.TIME, 0));

        assertThat(outcome.takerToken()).isGreaterThan(outcome.holderToken());
        assertThat(outcome.staleWriteToFenced()).startsWith("REFUSED");
        assertThat(outcome.staleWriteToPlain()).isEqualTo("accepted");
        assertThat(outcome.fencedValue()).isEqualTo("written by service B");
        assertThat(outcome.plainValue()).isEqualTo("written by service A");
        assertThat(outcome.holderRelease()).startsWith("LockLostException");
        assertThat(outcome.correct()).isTrue();
    }

    @Test
    void withoutArgumentsTheDemoRunsEveryScenarioOnAnEmbeddedZooKeeper() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = DistlockMain.run(new ByteArrayInputStream(new byte[0]), new PrintWriter(out, true),
                new PrintWriter(err, true), "demo");
        String printed = out.toString();

        assertThat(code).as(printed + "\n" + err).isEqualTo(ExitCodes.OK);
        assertThat(printed).containsPattern("embedded ZooKeeper on 127\\.0\\.0\\.1:\\d+")
                .contains("1/5  Points redemption", "2/5  Flash sale", "3/5  Fencing", "4/5  Scheduled job",
                        "5/5  Rate-limited API")
                .contains("every run was correct");
        assertThat(printed).as("points").contains("redeemed (read 10, 1st in lock)", "refused (read 3, 2nd in lock)")
                .containsPattern("balance +-?\\d+ +3\\R").containsPattern("bookmarks +\\d+ +1\\R");
        assertThat(printed).as("flash sale").contains("correct: sold + stock = 10");
        assertThat(printed.replaceAll("\\s+", " ")).contains("past its ZooKeeper session timeout (4.00 s)");
        assertThat(printed)
                .contains("frozen with SIGSTOP")
                .containsPattern("wrote with its old token +accepted +REFUSED")
                .contains("fenced record now holds: \"written by service B\"");
        assertThat(printed).containsPattern("tryRun\\(minHeld, task\\) +1 +1x +[A-D]#\\d+\\R")
                .containsPattern("all +3 for 3 +correct: once per tick");
        assertThat(printed).containsPattern("most at once +\\d +[12]\\R")
                .containsPattern("over limit +\\d of 8 +0 of 8")
                .contains("correct: never more than 2 at once");
        assertThat(printed.lines().filter(l -> l.length() > DemoOnRedisTest.MAX_COLUMNS)).as(printed).isEmpty();
    }
}
