package io.distlock.chaos;

import java.time.Duration;
import java.util.List;

/** Writes the results as the Markdown table of {@code chaos-report.md}, one row per store and scenario. */
final class ChaosReport {

    private ChaosReport() {
    }

    static String markdown(List<ChaosResult> results, String header) {
        StringBuilder md = new StringBuilder(header);
        md.append("\n| store | scenario | ops | faults (mid-hold) | acquired ok / fail / unknown | silent overlaps | "
                + "told overlaps | lost updates | fence rejections | stale writes accepted | fencing tokens re-issued "
                + "| recovery | bars | note |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (ChaosResult r : results) {
            md.append("| ").append(r.store())
                    .append(" | ").append(r.scenario())
                    .append(" | ").append(r.operations())
                    .append(" | ").append(r.faults()).append(" (").append(r.faultsMidHold()).append(")")
                    .append(" | ").append(r.acquiredOk()).append(" / ").append(r.acquiredFail()).append(" / ")
                    .append(r.acquiredUnknown())
                    .append(" | ").append(r.undetectedOverlaps())
                    .append(" | ").append(r.detectedOverlaps())
                    .append(" | ").append(r.lostUpdates())
                    .append(" | ").append(r.fenceRejections())
                    .append(" | ").append(r.staleWritesAccepted())
                    .append(" | ").append(r.tokensReissued())
                    .append(" | ").append(format(r.recovery()))
                    .append(" | ").append(verdict(r))
                    .append(" | ").append(r.note().replace("|", "/"))
                    .append(" |\n");
        }
        return md.toString();
    }

    /** One line for the end of a run: runs, faults, and the violations per column. */
    static String summary(List<ChaosResult> results) {
        long missed = results.stream().filter(r -> !r.meetsBars()).count();
        long expected = results.stream().filter(ChaosResult::expectedUnsafe).count();
        return "chaos: " + results.size() + " runs, " + results.stream().mapToLong(ChaosResult::faults).sum()
                + " faults injected (" + results.stream().mapToLong(ChaosResult::faultsMidHold).sum() + " mid-hold); "
                + results.stream().mapToLong(ChaosResult::undetectedOverlaps).sum() + " silent overlaps, "
                + results.stream().mapToLong(ChaosResult::lostUpdates).sum() + " lost updates, "
                + results.stream().mapToLong(ChaosResult::staleWritesAccepted).sum() + " stale writes accepted, "
                + results.stream().mapToLong(ChaosResult::tokensReissued).sum() + " fencing tokens re-issued; "
                + missed + " runs missed their bars, " + expected + " showed their documented unsafe-by-design "
                + "overlaps";
    }

    /** "met", "expected: unsafe by design" (the documented overlaps showed), or "MISSED". */
    static String verdict(ChaosResult r) {
        if (!r.meetsBars()) {
            return "MISSED";
        }
        return r.expectedUnsafe() ? "expected: unsafe by design" : "met";
    }

    private static String format(Duration d) {
        return d == null ? "-" : String.format("%.2f s", d.toMillis() / 1000.0);
    }
}
