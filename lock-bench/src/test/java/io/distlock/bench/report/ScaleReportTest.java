package io.distlock.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.bench.core.Role;
import io.distlock.bench.result.CostResult;
import io.distlock.bench.result.HeldLeasesResult;
import io.distlock.bench.result.NamesOnceResult;
import io.distlock.bench.result.OpCost;
import io.distlock.bench.result.StoreResult;
import io.distlock.bench.result.WaitersPoint;
import io.distlock.bench.scenario.CostProbe;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The counted part leads the report (before the no-delay figures), shows median and spread, checks the issue #33
 * targets from counts, and each growth curve has its chart with lower-is-better panels said apart.
 */
class ScaleReportTest {

    private static OpCost cost(double roundTrips, double cpu, double bytes) {
        return new OpCost(100, roundTrips, 0, 500, 30, roundTrips, Double.NaN, cpu, bytes, 1000);
    }

    private static BenchReport report() {
        StoreResult redis = new StoreResult("redis", "test");
        CostResult ours = new CostResult("distlock", Role.DISTLOCK, CostProbe.PAIR);
        ours.add(cost(2.0, 50, 2000));
        ours.add(cost(2.0, 70, 2400));
        ours.add(cost(2.0, 60, 2200));
        CostResult redisson = new CostResult("Redisson RLock", Role.REDISSON, CostProbe.PAIR);
        redisson.add(cost(3.0, 800, 20000));
        redis.costs().add(ours);
        redis.costs().add(redisson);
        redis.waiters().add(new WaitersPoint("distlock", Role.DISTLOCK, 1, cost(2.0, 50, 2000), null, 100, 100));
        redis.waiters().add(new WaitersPoint("distlock", Role.DISTLOCK, 4, cost(5.0, 90, 3000), null, 140, 160));
        redis.waiters().add(new WaitersPoint("distlock", Role.DISTLOCK, 16, cost(16.9, 200, 9000), null, 2, 300));
        redis.namesOnce().add(new NamesOnceResult("distlock", Role.DISTLOCK, 1000, 1.0, 1000, 1000,
                Duration.ofSeconds(35), null));
        redis.heldCurve().add(new HeldLeasesResult("distlock", 1000, Duration.ofSeconds(6), 1, 3, 9, 900, 0, null));
        return new BenchReport(Instant.parse("2026-12-01T12:00:00Z"), 0.1, "cmd", "machine", 0, 0, "settings",
                Map.of(), List.of(redis), List.of(), List.of(), "abc1234", List.of(), List.of());
    }

    @Test
    void countedCostsLeadWithSpreadAndTargetsFromCounts() {
        String md = MarkdownReport.render(report());

        assertThat(md.indexOf("## Counted cost per operation")).isPositive()
                .isLessThan(md.indexOf("# No-delay figures"));
        assertThat(md).contains("| distlock | pair | 3 | 2.00 | 0.00 | 2.00 | 500 | 30 | n/a | 60.0 (50.0-70.0) | "
                + "2,200 (2,000-2,400) |");
        assertThat(md).contains("pair: distlock at the fewest round trips the protocol allows")
                .containsPattern("client CPU per pair below every other library's \\| distlock 60.0 µs vs "
                        + "Redisson RLock 800.0 µs \\| met")
                .containsPattern("waiters: distlock round trips per acquisition constant from 4 to 16 clients.*"
                        + "\\*\\*missed\\*\\*, grows 3.38x")
                .containsPattern("names used once: nothing left.*1,000 entries right after release, 1,000 after 35 s"
                        + " \\| \\*\\*missed\\*\\*, 1.00 entries per name left");
    }

    @Test
    void aZooKeeperPairIsJudgedAgainstThreeRoundTripsAndAnyOtherStoresAgainstTwo() {
        StoreResult zookeeper = new StoreResult("zookeeper", "test");
        CostResult three = new CostResult("distlock", Role.DISTLOCK, CostProbe.PAIR);
        three.add(cost(3.01, 300, 18000));
        zookeeper.costs().add(three);
        StoreResult redis = new StoreResult("redis", "test");
        CostResult alsoThree = new CostResult("distlock", Role.DISTLOCK, CostProbe.PAIR);
        alsoThree.add(cost(3.01, 50, 2000));
        redis.costs().add(alsoThree);
        String md = MarkdownReport.render(new BenchReport(Instant.parse("2026-12-01T12:00:00Z"), 0.1, "cmd",
                "machine", 0, 0, "settings", Map.of(), List.of(zookeeper, redis), List.of(), List.of(), "abc1234",
                List.of(), List.of()));

        assertThat(md).containsPattern("\\| zookeeper \\| pair: distlock at the fewest round trips the protocol allows"
                + " \\(3: one to queue and list.*\\| 3.01 round trips.*\\| met \\|")
                .containsPattern("\\| redis \\| pair: distlock at the fewest round trips the protocol allows"
                + " \\(2: one to acquire, one to release\\).*\\| \\*\\*missed\\*\\*, 1.01 round trips over");
    }

    @Test
    void waitersTableGivesTheFewestAndMostAcquisitionsOfOneClient() {
        String md = MarkdownReport.render(report());

        assertThat(md).contains("share nothing in-process", "| per client |")
                .containsPattern("\\| distlock \\| 16 \\| 16.90 \\|.*\\| 2-300 \\|");
    }

    @Test
    void countedCostsAtARoundTripTimeAreTheirOwnSectionWithTimePerOperationInRoundTrips() {
        BenchReport report = report();
        StoreResult redis = report.stores().get(0);
        CostResult ours = new CostResult("distlock", Role.DISTLOCK, CostProbe.PAIR);
        ours.add(new OpCost(100, 2.0, 0, 500, 30, 2.0, Double.NaN, 60, 2000, 240)); // 4.17 ms per pair
        CostResult redisson = new CostResult("Redisson RLock", Role.REDISSON, CostProbe.PAIR);
        redisson.add(new OpCost(100, 3.0, 0, 900, 60, 3.0, Double.NaN, 800, 20000, 160));
        CostResult handoff = new CostResult("distlock", Role.DISTLOCK, CostProbe.HANDOFF);
        handoff.add(new OpCost(100, 3.0, 1.0, 900, 100, 3.0, Double.NaN, 900, 7000, 20)); // 50 ms, 13 ms settle
        redis.costsAtRoundTripTime().put("2 ms", List.of(ours, redisson, handoff));

        String md = MarkdownReport.render(report);

        assertThat(md.indexOf("## Counted cost per operation at a 2 ms round trip")).as(md)
                .isGreaterThan(md.indexOf("## Counted cost per operation\n"))
                .isLessThan(md.indexOf("# No-delay figures"));
        assertThat(md).contains("holding each chunk of data 1 ms each way", "### redis (counted at 2 ms)")
                .contains("| distlock | pair | 1 | 2.00 | 0.00 | 2.00 | 500 | 30 | 240 | 4.17 | 2.08 |  |")
                .contains("| Redisson RLock | pair | 1 | 3.00 | 0.00 | 3.00 | 900 | 60 | 160 | 6.25 | 3.13 | 0.67x |")
                .contains("leaves out the 13 ms the holder waits before releasing")
                .contains("| distlock | hand-off | 1 | 3.00 | 1.00 | 3.00 | 900 | 100 | 20 | 37.00 | 18.50 |  |");
    }

    @Test
    void namesUsedOnceAtSeveralSizesShowTimePerNameAndTheTargetReadsTheLargest() {
        BenchReport report = report();
        report.stores().get(0).namesOnce().add(new NamesOnceResult("distlock", Role.DISTLOCK, 10_000, 20.0, 10_000, 0,
                Duration.ofSeconds(35), null));

        String md = MarkdownReport.render(report);

        assertThat(md).contains("| redis | distlock | 1,000 | 1.0 | 1,000 | 1,000 | 1,000 (after 35s) | 1.00 |",
                "| redis | distlock | 10,000 | 20.0 | 2,000 | 10,000 | 0 (after 35s) | 0.00 |");
        assertThat(md).containsPattern("names used once: nothing left.*10,000 names: 10,000 entries right after "
                + "release, 0 after 35 s \\| met");
    }

    @Test
    void everyGrowthCurveHasAChartWithLowerIsBetterPanels() {
        BenchReport report = report();

        String waiters = ScaleReport.waitersChart(report);
        assertThat(waiters).startsWith("<?xml").contains("redis: round trips per acquisition", "lower is better",
                "redis: acquisitions per second (timed)", "higher is better", "16").endsWith("</svg>\n");
        assertThat(ScaleReport.namesChart(report)).contains("redis: entries left per name", "after lease + grace");
        assertThat(ScaleReport.heldChart(report)).contains("redis: renewal round trips per interval",
                "redis: client heap B per held lease");
    }

    @Test
    void everyStoresHandOffIsAlsoHeldToTheHostsRawWakeUpFloorOfTheSameRun() {
        BenchReport report = report();
        StoreResult redisAt = new StoreResult("redis", "test");
        redisAt.scenarios().add(TargetsTest.handoff("distlock", Role.DISTLOCK, 6_000_000));
        redisAt.scenarios().add(TargetsTest.handoff("raw wake-up", Role.RAW_WAKE_UP, 10_000_000));
        report.stores().get(0).atRoundTripTime().put(ScaleTargets.TARGET_RTT, redisAt);
        StoreResult zk = new StoreResult("zookeeper", "test");
        StoreResult zkAt = new StoreResult("zookeeper", "test");
        zkAt.scenarios().add(TargetsTest.handoff("distlock", Role.DISTLOCK, 12_000_000));
        zk.atRoundTripTime().put(ScaleTargets.TARGET_RTT, zkAt);
        BenchReport both = new BenchReport(report.startedAt(), 0.1, "cmd", "machine", 0, 0, "settings", Map.of(),
                List.of(report.stores().get(0), zk), List.of(), List.of(), "abc1234", List.of(), List.of());

        String md = MarkdownReport.render(both);

        assertThat(md).containsPattern("\\| redis \\| at 0.5 ms RTT, handoff: distlock p99 <= 2 round trips \\+ 1 ms "
                        + "\\(2.0 ms\\) \\| 6.0\\d\\d ms over 1 hand-offs \\| \\*\\*missed\\*\\*")
                .containsPattern("\\| redis \\| at 0.5 ms RTT, handoff: distlock p99 <= the host's raw wake-up floor p99 "
                        + "in this run \\(10.0\\d\\d ms\\) \\| 6.0\\d\\d ms over 1 hand-offs \\| met \\|")
                .containsPattern("\\| zookeeper \\| at 0.5 ms RTT, handoff: distlock p99 <= the host's raw wake-up floor "
                        + "p99 in this run \\(10.0\\d\\d ms\\) \\| 12.0\\d\\d ms over 1 hand-offs \\| \\*\\*missed\\*\\*, 2.0\\d ms over");
    }

    private static CostResult counted(String name, Role role, String loop, OpCost cost) {
        CostResult c = new CostResult(name, role, loop);
        c.add(cost);
        return c;
    }

    private static OpCost perOp(double roundTrips, double requests, double pushes, double cpu, double bytes) {
        return new OpCost(100, roundTrips, pushes, 500, 30, requests, Double.NaN, cpu, bytes, 1000);
    }

    private static String render(StoreResult... stores) {
        return MarkdownReport.render(new BenchReport(Instant.parse("2026-12-01T12:00:00Z"), 0.1, "cmd", "machine", 0,
                0, "settings", Map.of(), List.of(stores), List.of(), List.of(), "abc1234", List.of(), List.of()));
    }

    @Test
    void zooKeeperCpuAllocationAndThroughputAreJudgedAgainstCuratorWithATokenAndTheUnfencedRowStaysMarked() {
        StoreResult zk = new StoreResult("zookeeper", "test");
        zk.costs().add(counted("distlock", Role.DISTLOCK, CostProbe.PAIR, perOp(3, 5, 0, 468, 18_000)));
        zk.costs().add(counted("Curator InterProcessMutex", Role.CURATOR, CostProbe.PAIR,
                perOp(3, 3, 0, 318, 12_300)));
        zk.costs().add(counted("Curator InterProcessMutex + token", Role.CURATOR_FENCED, CostProbe.PAIR,
                perOp(5, 5, 0, 520, 21_000)));
        zk.costs().add(counted("raw create-seq + getChildren + delete", Role.RAW, CostProbe.PAIR,
                perOp(3, 3, 0, 100, 3_000)));
        StoreResult at = new StoreResult("zookeeper", "test");
        at.scenarios().add(TargetsTest.result("distlock", Role.DISTLOCK, "uncontended-1", 200));
        at.scenarios().add(TargetsTest.result("Curator InterProcessMutex", Role.CURATOR, "uncontended-1", 220));
        at.scenarios().add(TargetsTest.result("Curator InterProcessMutex + token", Role.CURATOR_FENCED,
                "uncontended-1", 140));
        at.scenarios().add(TargetsTest.result("raw create-seq + getChildren + delete", Role.RAW, "uncontended-1",
                400));
        zk.atRoundTripTime().put(ScaleTargets.TARGET_RTT, at);

        String md = render(zk);

        assertThat(md).contains("| zookeeper | pair: distlock client CPU per pair below every other library's (Curator "
                        + "InterProcessMutex + token: a fenced pair as distlock's) | distlock 468.0 µs vs Curator "
                        + "InterProcessMutex + token 520.0 µs | met |  |")
                .contains("| zookeeper | pair: distlock client CPU per pair below Curator InterProcessMutex's (a "
                        + "fenced pair against an unfenced one, for reference: the target is judged against Curator "
                        + "InterProcessMutex + token) | distlock 468.0 µs vs Curator InterProcessMutex 318.0 µs | "
                        + "**missed**, not below Curator InterProcessMutex | 5.00 requests per pair vs Curator "
                        + "InterProcessMutex 3.00; per request 93.6 vs 106.0 µs |")
                .contains("| zookeeper | pair: distlock client allocation per pair below Curator InterProcessMutex's "
                        + "(a fenced pair against an unfenced one", "per request 3,600 vs 4,100 B |")
                .contains("| zookeeper | at 0.5 ms RTT, uncontended-1: distlock >= 1.10x Curator InterProcessMutex + "
                        + "token | 1.43x (200 vs 140 ops/s) | met |  |");
        assertThat(md).contains("| zookeeper | at 0.5 ms RTT, uncontended-1: distlock >= 1.10x Curator "
                + "InterProcessMutex (a fenced pair against an unfenced one, for reference: the target is judged "
                + "against Curator InterProcessMutex + token) | 0.91x (200 vs 220 ops/s) | **missed**, 17% short | "
                + "distlock 3.00 round trips, 5.00 requests per pair vs Curator InterProcessMutex 3.00, 3.00: round "
                + "trips alone allow at most 1.00x; 1.10x needs 242 ops/s; client CPU per pair 468 vs 318 µs |");
    }

    @Test
    void aMissedContendedRatioSaysWhatTheCountedContendedLoopAllowsAtTheRoundTripTheRunPaid() {
        StoreResult redis = new StoreResult("redis", "test");
        redis.costs().add(counted("distlock", Role.DISTLOCK, CostProbe.PAIR, perOp(2, 2, 0, 60, 2_000)));
        redis.costs().add(counted("raw", Role.RAW, CostProbe.PAIR, perOp(2, 2, 0, 30, 1_000)));
        redis.costs().add(counted("distlock", Role.DISTLOCK, CostProbe.HANDOFF, perOp(3, 3, 1, 90, 3_000)));
        redis.costs().add(counted("distlock", Role.DISTLOCK, CostProbe.CONTENDED, perOp(1.1, 1.1, 0.1, 40, 1_500)));
        redis.costs().add(counted("Redisson RLock", Role.REDISSON, CostProbe.CONTENDED, perOp(2.3, 3.5, 1.2, 300,
                16_000)));
        StoreResult at = new StoreResult("redis", "test");
        at.scenarios().add(TargetsTest.result("raw", Role.RAW, "uncontended-1", 625)); // 0.8 ms a round trip
        at.scenarios().add(TargetsTest.result("distlock", Role.DISTLOCK, "uncontended-1", 600));
        at.scenarios().add(TargetsTest.result("distlock", Role.DISTLOCK, "contended-8x2", 900));
        at.scenarios().add(TargetsTest.result("Redisson RLock", Role.REDISSON, "contended-8x2", 550));
        at.scenarios().add(TargetsTest.handoff("distlock", Role.DISTLOCK, 3_500_000));
        redis.atRoundTripTime().put(ScaleTargets.TARGET_RTT, at);

        String md = render(redis);

        assertThat(md).contains("| redis | at 0.5 ms RTT, contended-8x2: distlock >= 3.00x Redisson RLock | 1.64x (900 "
                + "vs 550 ops/s) | **missed**, 45% short | distlock 1.10 round trips, 1.10 requests per acquisition "
                + "vs Redisson RLock 2.30, 3.50; 3.00x needs 1,650 ops/s, above the 1-round-trip-per-acquisition "
                + "ceiling of 1,250 ops/s at the effective 0.80 ms round trip (raw uncontended-1 pair time / 2.00 "
                + "round trips) |");
        assertThat(md).contains("| redis | at 0.5 ms RTT, handoff: distlock p99 <= 2 round trips + 1 ms (2.0 ms) | "
                + "3.50", "| critical path 2.50 round trips (release + acquire 2.00, 1.00 pushed wake-ups at half a "
                + "round trip) = 2.00 ms at the effective 0.80 ms round trip", "the other 1.50 ms of the p99 is its tail "
                + "beyond round trips at their median cost: server time, thread wake-ups and scheduling on this "
                + "host |");
        assertThat(md).contains("`contended`: the contended-8x2 shape counted");
    }
}
