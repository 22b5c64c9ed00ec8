package io.distlock.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders a growth curve as SVG: one panel per figure, one line per contender over the same x points (the sizes),
 * on a linear y axis from zero so gaps read at their true size. Each panel says whether lower or higher is better,
 * and panels of the two kinds are never mixed. Hand-written SVG, so the harness needs no plotting library.
 */
public final class GrowthChart {

    private static final int PANEL_W = 470;
    private static final int PANEL_H = 250;
    private static final int COLUMNS = 2;
    private static final String[] PALETTE = {"#2b7bb9", "#e8923a", "#6a9f3a", "#b94a7b", "#8a6fc0", "#9a9a9a"};

    private final String title;
    private final List<Panel> panels = new ArrayList<>();

    public GrowthChart(String title) {
        this.title = title;
    }

    /**
     * One panel: a figure over the x points, per contender.
     *
     * @param title what the panel shows
     * @param lowerIsBetter whether smaller values are better (said in the panel's title)
     * @param xLabels labels of the x points
     * @param series values per contender, in x order; NaN where not measured; distlock first draws thickest
     */
    public record Panel(String title, boolean lowerIsBetter, List<String> xLabels, Map<String, double[]> series) {
    }

    /** Adds a panel unless it has no value at all. */
    public GrowthChart add(Panel panel) {
        boolean any = panel.series().values().stream()
                .anyMatch(v -> java.util.Arrays.stream(v).anyMatch(d -> !Double.isNaN(d)));
        if (any) {
            panels.add(panel);
        }
        return this;
    }

    public boolean isEmpty() {
        return panels.isEmpty();
    }

    /** The chart as an SVG document. */
    public String render() {
        int rows = (panels.size() + COLUMNS - 1) / COLUMNS;
        int width = COLUMNS * (PANEL_W + 20) + 20;
        int height = 50 + Math.max(1, rows) * (PANEL_H + 30);
        StringBuilder b = new StringBuilder();
        b.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        b.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">%n", width, height, width, height));
        b.append(String.format(Locale.ROOT, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>%n",
                width, height));
        b.append(text(20, 28, title, "font-size=\"16\" font-weight=\"bold\""));
        for (int i = 0; i < panels.size(); i++) {
            int x0 = 20 + (i % COLUMNS) * (PANEL_W + 20);
            int y0 = 50 + (i / COLUMNS) * (PANEL_H + 30);
            panel(b, panels.get(i), x0, y0);
        }
        if (panels.isEmpty()) {
            b.append(text(20, 70, "nothing measured", "font-size=\"12\""));
        }
        b.append("</svg>\n");
        return b.toString();
    }

    private static void panel(StringBuilder b, Panel p, int x0, int y0) {
        int left = x0 + 60;
        int right = x0 + PANEL_W - 10;
        int top = y0 + 40;
        int bottom = y0 + PANEL_H - 30;
        b.append(text(x0, y0 + 14, p.title(), "font-size=\"13\" font-weight=\"bold\""));
        b.append(text(x0, y0 + 30, p.lowerIsBetter() ? "lower is better" : "higher is better",
                "font-size=\"11\" font-style=\"italic\" fill=\"" + (p.lowerIsBetter() ? "#a33" : "#3a3") + "\""));
        double max = 0;
        for (double[] v : p.series().values()) {
            for (double d : v) {
                if (!Double.isNaN(d) && !Double.isInfinite(d)) {
                    max = Math.max(max, d);
                }
            }
        }
        max = max <= 0 ? 1 : niceCeiling(max * 1.05);
        b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>%n",
                left, bottom, right, bottom));
        b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>%n",
                left, top, left, bottom));
        for (int t = 0; t <= 4; t++) {
            double value = max * t / 4;
            int y = (int) Math.round(bottom - (bottom - top) * t / 4.0);
            b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>%n",
                    left + 1, y, right, y));
            b.append(text(left - 6, y + 4, number(value), "font-size=\"10\" text-anchor=\"end\""));
        }
        int n = p.xLabels().size();
        double step = n <= 1 ? 0 : (right - left - 30) / (double) (n - 1);
        for (int i = 0; i < n; i++) {
            int x = (int) Math.round(left + 15 + step * i);
            b.append(text(x, bottom + 16, p.xLabels().get(i), "font-size=\"10\" text-anchor=\"middle\""));
        }
        int s = 0;
        int legendY = top + 2;
        for (Map.Entry<String, double[]> e : p.series().entrySet()) {
            String colour = PALETTE[s % PALETTE.length];
            String width = s == 0 ? "3" : "1.8";
            StringBuilder points = new StringBuilder();
            double[] v = e.getValue();
            for (int i = 0; i < Math.min(n, v.length); i++) {
                if (Double.isNaN(v[i])) {
                    continue;
                }
                int x = (int) Math.round(left + 15 + step * i);
                int y = (int) Math.round(bottom - (bottom - top) * (v[i] / max));
                points.append(x).append(',').append(y).append(' ');
                b.append(String.format(Locale.ROOT, "<circle cx=\"%d\" cy=\"%d\" r=\"3\" fill=\"%s\"/>%n", x, y,
                        colour));
            }
            if (points.length() > 0) {
                b.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" "
                        + "stroke-width=\"%s\"/>%n", points.toString().strip(), colour, width));
            }
            b.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>%n",
                    left + 10, legendY, colour));
            b.append(text(left + 24, legendY + 9, e.getKey(), "font-size=\"10\""));
            legendY += 13;
            s++;
        }
    }

    private static double niceCeiling(double v) {
        double magnitude = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10}) {
            if (m * magnitude >= v) {
                return m * magnitude;
            }
        }
        return 10 * magnitude;
    }

    private static String number(double v) {
        if (v == 0) {
            return "0";
        }
        if (v >= 100) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (v >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    /** An ordered series map, distlock first. */
    public static Map<String, double[]> series() {
        return new LinkedHashMap<>();
    }

    private static String text(int x, int y, String content, String attributes) {
        return String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" %s>%s</text>%n", x, y, attributes,
                content.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"));
    }
}
