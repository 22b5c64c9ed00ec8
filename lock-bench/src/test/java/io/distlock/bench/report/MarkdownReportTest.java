package io.distlock.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.bench.core.Role;
import io.distlock.bench.result.StoreResult;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The store table: the raw wake-up floor gets its own row with latency percentiles but no ratio, and is not the
 * "best other library" distlock's hand-off is compared with.
 */
class MarkdownReportTest {

    @Test
    void wakeUpFloorRowHasLatenciesButNoRatioAndIsNoLibraryToCompareWith() {
        StoreResult redis = new StoreResult("redis", "test");
        redis.scenarios().add(TargetsTest.handoff("distlock", Role.DISTLOCK, 4_000_000));
        redis.scenarios().add(TargetsTest.handoff("Redisson RLock", Role.REDISSON, 8_000_000));
        redis.scenarios().add(TargetsTest.handoff("floor", Role.RAW_WAKE_UP, 2_000_000));
        BenchReport report = new BenchReport(Instant.parse("2026-12-01T12:00:00Z"), 0.1, "cmd", "machine", 0, 0,
                "settings", Map.of(), List.of(redis), List.of(), List.of(), "abc1234", List.of(), List.of());

        List<String> rows = MarkdownReport.render(report).lines().filter(l -> l.contains("| handoff |")).toList();

        assertThat(rows).hasSize(3);
        assertThat(rows.get(2)).startsWith("| floor (raw wake-up floor) | handoff | (1 hand-offs) | | |  | 2.0");
        assertThat(rows.get(0)).as("distlock's p99 against Redisson's, not the floor's")
                .startsWith("| distlock | handoff | (1 hand-offs) | | | 2.00x | 4.0");
    }
}
