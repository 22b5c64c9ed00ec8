package io.distlock.bench.report;

import io.distlock.bench.result.StoreResult;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Everything one benchmark run produced, plus the context the report states.
 *
 * @param startedAt when the run started
 * @param minutes how long it took
 * @param command the command that produced it
 * @param machine the machine line
 * @param loadBefore 1-minute load average at the start
 * @param loadAfter 1-minute load average at the end
 * @param settings the run's settings in one line
 * @param scenarioTitles scenario id to one-line description
 * @param stores results per store
 * @param checks target checks over all stores
 * @param missingStores stores asked for that could not run, with the reason
 * @param commit the git commit the run was built from ({@code -dirty} with uncommitted changes), or "unknown"
 * @param thisRun this run's key figures, one row per store
 * @param earlier the key figures of earlier runs, oldest first
 */
public record BenchReport(Instant startedAt, double minutes, String command, String machine, double loadBefore,
                          double loadAfter, String settings, Map<String, String> scenarioTitles,
                          List<StoreResult> stores, List<TargetCheck> checks, List<String> missingStores,
                          String commit, List<History.Row> thisRun, List<History.Row> earlier) {
}
