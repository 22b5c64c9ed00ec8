package io.distlock.bench.report;

import io.distlock.bench.core.Role;
import io.distlock.bench.result.ScenarioResult;
import io.distlock.bench.result.StoreResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Renders {@code bench-chart.svg}: per store and scenario, one horizontal bar per contender (ops/s on a linear
 * scale; hand-off p99 latency on a log scale, shorter is better), coloured by role. Hand-written SVG, so the
 * harness needs no plotting library.
 */
public final class SvgChart {

    private static final int WIDTH = 980;
    private static final int LABEL_WIDTH = 300;
    private static final int BAR_MAX = 440;
    private static final int ROW = 20;
    private static final double LOG_FLOOR_MS = 0.01;

    private SvgChart() {
    }

    /** The chart as an SVG document. */
    public static String render(BenchReport report) {
        StringBuilder body = new StringBuilder();
        int y = 40;
        body.append(text(20, 26,
                "distlock benchmark: ops/s per scenario (longer is better), hand-off p99 (shorter is better)",
                "font-size=\"16\" font-weight=\"bold\""));
        y = legend(body, y);
        for (StoreResult store : report.stores()) {
            y += 14;
            body.append(text(20, y + 14, store.store() + " - " + store.server(),
                    "font-size=\"15\" font-weight=\"bold\""));
            y += 24;
            for (String scenario : scenarioIds(store)) {
                List<ScenarioResult> rows = new ArrayList<>();
                for (ScenarioResult r : store.scenarios()) {
                    if (r.scenario().equals(scenario) && r.usable()) {
                        rows.add(r);
                    }
                }
                if (rows.isEmpty()) {
                    continue;
                }
                boolean throughput = rows.get(0).throughput();
                body.append(text(30, y + 13,
                        throughput ? scenario + " (ops/s)" : scenario + " p99 latency (ms, log scale)",
                        "font-size=\"12\" font-style=\"italic\""));
                y += ROW;
                double max = 0;
                for (ScenarioResult r : rows) {
                    max = Math.max(max, throughput ? r.medianOpsPerSecond() : r.latencyMillis(99));
                }
                for (ScenarioResult r : rows) {
                    double value = throughput ? r.medianOpsPerSecond() : r.latencyMillis(99);
                    double fraction = throughput ? value / max : logFraction(value, max);
                    int length = (int) Math.max(2, Math.round(fraction * BAR_MAX));
                    body.append(text(LABEL_WIDTH - 6, y + 13, r.contender(), "font-size=\"12\" text-anchor=\"end\""));
                    body.append(String.format(Locale.ROOT,
                            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>%n",
                            LABEL_WIDTH, y + 2, length, ROW - 5, colour(r.role())));
                    String label = throughput ? String.format(Locale.ROOT, "%,.0f", value)
                            : String.format(Locale.ROOT, "%.3f ms", value);
                    body.append(text(LABEL_WIDTH + length + 6, y + 13, label, "font-size=\"12\""));
                    y += ROW;
                }
                y += 6;
            }
        }
        y += 20;
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                        + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">%n", WIDTH, y, WIDTH, y)
                + String.format(Locale.ROOT, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>%n",
                        WIDTH, y)
                + body
                + "</svg>\n";
    }

    private static int legend(StringBuilder body, int y) {
        int x = 20;
        for (Role role : List.of(Role.DISTLOCK, Role.REDISSON, Role.RAW)) {
            body.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\"/>%n",
                    x, y, colour(role)));
            String name = role == Role.DISTLOCK ? "distlock" : role == Role.RAW ? "raw store limit" : "other library";
            body.append(text(x + 20, y + 12, name, "font-size=\"12\""));
            x += 160;
        }
        return y + 20;
    }

    private static List<String> scenarioIds(StoreResult store) {
        List<String> ids = new ArrayList<>();
        for (ScenarioResult r : store.scenarios()) {
            if (!ids.contains(r.scenario())) {
                ids.add(r.scenario());
            }
        }
        return ids;
    }

    private static double logFraction(double valueMs, double maxMs) {
        double top = Math.log10(Math.max(maxMs, LOG_FLOOR_MS * 10) / LOG_FLOOR_MS);
        return Math.max(0.01, Math.log10(Math.max(valueMs, LOG_FLOOR_MS) / LOG_FLOOR_MS) / top);
    }

    private static String colour(Role role) {
        return role == Role.DISTLOCK ? "#2b7bb9" : role.isRaw() ? "#9a9a9a" : "#e8923a";
    }

    private static String text(int x, int y, String content, String attributes) {
        return String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" %s>%s</text>%n", x, y, attributes, escape(content));
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
