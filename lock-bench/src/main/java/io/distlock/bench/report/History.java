package io.distlock.bench.report;

import io.distlock.bench.core.Role;
import io.distlock.bench.result.ScenarioResult;
import io.distlock.bench.result.StoreResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The key ratios of earlier runs, so a regression shows next to the current figures: one row per run and store in
 * {@code bench-history.tsv} (date, commit, load, store, figures), appended after each complete run and shown in the
 * report, newest first. The figures are distlock's ratio to the raw limit or the reference library in the scenarios
 * the targets are about.
 */
public final class History {

    /** The file, next to the report. */
    public static final String FILE = "bench-history.tsv";
    /** Rows shown in the report. */
    static final int SHOWN = 12;

    /** One store's key figures in one run. */
    public record Row(String date, String commit, String load, String store, String figures) {
    }

    private final List<Row> rows;

    private History(List<Row> rows) {
        this.rows = rows;
    }

    /** The history in {@code directory} (empty if it has none). */
    public static History read(Path directory) throws IOException {
        Path file = directory.resolve(FILE);
        List<Row> rows = new ArrayList<>();
        if (Files.exists(file)) {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\t", -1);
                if (f.length != 5) {
                    throw new IOException(file + ": expected 5 tab-separated fields, got " + f.length + ": " + line);
                }
                rows.add(new Row(f[0], f[1], f[2], f[3], f[4]));
            }
        }
        return new History(rows);
    }

    /** The rows, oldest first. */
    public List<Row> rows() {
        return List.copyOf(rows);
    }

    /**
     * The rows of a run started at {@code startedAt} from {@code commit}: one per store that has key figures, for
     * the multi-threaded scenario ids {@code many} and {@code contended}.
     */
    public static List<Row> rowsOf(java.time.Instant startedAt, String commit, List<StoreResult> stores, String many,
                                   String contended) {
        List<Row> mine = new ArrayList<>();
        String date = startedAt.toString().substring(0, 10);
        for (StoreResult store : stores) {
            String figures = figures(store, many, contended);
            if (!figures.isEmpty()) {
                mine.add(new Row(date, commit, String.format(Locale.ROOT, "%.1f-%.1f", store.loadAtStart(),
                        store.loadAtEnd()), store.store(), figures));
            }
        }
        return mine;
    }

    /** Appends {@code newRows} to the file in {@code directory}. */
    public static void append(Path directory, List<Row> newRows) throws IOException {
        Path file = directory.resolve(FILE);
        StringBuilder text = new StringBuilder();
        if (!Files.exists(file)) {
            text.append("# date\tcommit\tload (1-minute average at start-end of the store)\tstore\tdistlock's key "
                    + "ratios\n");
        }
        newRows.forEach(r -> text.append(String.join("\t", r.date(), r.commit(), r.load(), r.store(), r.figures()))
                .append('\n'));
        Files.writeString(file, text, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
    }

    private static String figures(StoreResult store, String many, String contended) {
        Map<String, Role> wanted = new LinkedHashMap<>();
        switch (store.store()) {
            case "redis" -> {
                wanted.put("uncontended-1", Role.RAW);
                wanted.put(many, Role.RAW);
                wanted.put(contended, Role.REDISSON);
            }
            case "zookeeper" -> {
                wanted.put("uncontended-1", Role.CURATOR);
                wanted.put(many, Role.CURATOR);
                wanted.put(contended, Role.CURATOR);
            }
            case "mariadb", "postgresql" -> {
                wanted.put("uncontended-1", Role.RAW);
                wanted.put(many, Role.RAW);
                wanted.put(contended, Role.SPRING_INTEGRATION);
            }
            default -> {
                return "";
            }
        }
        List<String> parts = new ArrayList<>();
        wanted.forEach((scenario, role) -> {
            Optional<ScenarioResult> ours = store.firstOf(Role.DISTLOCK, scenario);
            Optional<ScenarioResult> theirs = store.firstOf(role, scenario);
            if (ours.isPresent() && theirs.isPresent() && theirs.get().medianOpsPerSecond() > 0) {
                parts.add(String.format(Locale.ROOT, "%s %.2fx %s", scenario,
                        ours.get().medianOpsPerSecond() / theirs.get().medianOpsPerSecond(), shortName(role)));
            }
        });
        return String.join(", ", parts);
    }

    private static String shortName(Role role) {
        return switch (role) {
            case RAW -> "raw";
            case REDISSON -> "Redisson";
            case CURATOR -> "Curator";
            case SPRING_INTEGRATION -> "Spring";
            default -> role.name();
        };
    }
}
