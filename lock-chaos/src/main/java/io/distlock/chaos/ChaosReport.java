package io.distlock.chaos;

import java.time.Duration;
import java.util.List;

/** Writes the results as the Markdown table of {@code chaos-report.md}, one row per store and scenario. */
final class ChaosReport {

    private ChaosReport() {
    }

    static String markdown(List<ChaosResult> results, String header) {
        StringBuilder md = new StringBuilder(header);
        md.append("\n| store | scenario | ops | faults | acquired ok / fail / unknown | silent overlaps | "
                + "told overlaps | lost updates | fence rejections | stale writes accepted | recovery | bars | note |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (ChaosResult r : results) {
            md.append("| ").append(r.store())
                    .append(" | ").append(r.scenario())
                    .append(" | ").append(r.operations())
                    .append(" | ").append(r.faults())
                    .append(" | ").append(r.acquiredOk()).append(" / ").append(r.acquiredFail()).append(" / ")
                    .append(r.acquiredUnknown())
                    .append(" | ").append(r.undetectedOverlaps())
                    .append(" | ").append(r.detectedOverlaps())
                    .append(" | ").append(r.lostUpdates())
                    .append(" | ").append(r.fenceRejections())
                    .append(" | ").append(r.staleWritesAccepted())
                    .append(" | ").append(format(r.recovery()))
                    .append(" | ").append(r.meetsBars() ? "met" : (r.unsafeByDesign() ? "unsafe by design" : "MISSED"))
                    .append(" | ").append(r.note().replace("|", "/"))
                    .append(" |\n");
        }
        return md.toString();
    }

    private static String format(Duration d) {
        return d == null ? "-" : String.format("%.2f s", d.toMillis() / 1000.0);
    }
}
