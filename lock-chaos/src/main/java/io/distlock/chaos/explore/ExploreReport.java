package io.distlock.chaos.explore;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The explorer's markdown report, as the fault suite's: one row per store and scenario (steps counted, runs, runs
 * that met every bar, runs that broke one, steps not reached), the steps of each counting run, and every run that
 * broke a bar, by name, with what it broke.
 */
final class ExploreReport {

    private final Map<String, List<String>> stepLabels = new LinkedHashMap<>();
    private final List<ExploreResult> results = new ArrayList<>();

    /** Records the counting run of {@code storeAndScenario}. */
    void counted(String storeAndScenario, List<String> labels) {
        stepLabels.put(storeAndScenario, labels);
    }

    void add(ExploreResult r) {
        results.add(r);
    }

    List<ExploreResult> results() {
        return results;
    }

    String markdown(String command, Duration took) {
        StringBuilder s = new StringBuilder();
        s.append("# Fault-point explorer report\n\n");
        s.append("Written ").append(Instant.now()).append(" by `").append(command).append("` (")
                .append(took.toMinutes()).append(" min). How it works, the fault model and the recall of past defects:")
                .append(" [EXPLORE.md](EXPLORE.md).\n\n");
        s.append("| store / scenario | steps | runs | met every bar | broke a bar | step not reached |\n");
        s.append("|---|---|---|---|---|---|\n");
        for (String key : stepLabels.keySet()) {
            List<ExploreResult> rs = results.stream().filter(r -> key(r).equals(key)).toList();
            s.append("| ").append(key).append(" | ").append(stepLabels.get(key).size()).append(" | ").append(rs.size())
                    .append(" | ").append(rs.stream().filter(r -> r.clean() && r.reached()).count())
                    .append(" | ").append(rs.stream().filter(r -> !r.clean()).count())
                    .append(" | ").append(rs.stream().filter(r -> !r.reached()).count()).append(" |\n");
        }
        s.append("\n## Runs that broke a bar\n\n");
        List<ExploreResult> broken = results.stream().filter(r -> !r.clean()).toList();
        if (broken.isEmpty()) {
            s.append("None.\n");
        } else {
            s.append("| run (replay: `distlock explore --run NAME`) | fault hit | what broke |\n|---|---|---|\n");
            for (ExploreResult r : broken) {
                s.append("| `").append(r.name()).append("` | ").append(r.injectedAt() == null ? "(not reached)"
                        : r.injectedAt()).append(" | ").append(String.join("; ", r.violations()).replace("|", "\\|"))
                        .append(" |\n");
            }
        }
        s.append("\n## Steps of the counting runs\n\n");
        for (Map.Entry<String, List<String>> e : stepLabels.entrySet()) {
            s.append("- **").append(e.getKey()).append("**: ").append(ranges(e.getValue())).append("\n");
        }
        return s.toString();
    }

    /** {@code 1-3 A open, 4 A1 acquire, ...}: consecutive steps of one label as a range. */
    static String ranges(List<String> labels) {
        List<String> parts = new ArrayList<>();
        int i = 0;
        while (i < labels.size()) {
            int j = i;
            while (j + 1 < labels.size() && labels.get(j + 1).equals(labels.get(i))) {
                j++;
            }
            parts.add((i == j ? Integer.toString(i + 1) : (i + 1) + "-" + (j + 1)) + " " + labels.get(i));
            i = j + 1;
        }
        return String.join(", ", parts);
    }

    private static String key(ExploreResult r) {
        return r.name().store().label() + " / " + r.name().scenario().label();
    }

    void write(Path file, String command, Duration took) throws IOException {
        Files.writeString(file, markdown(command, took));
    }
}
