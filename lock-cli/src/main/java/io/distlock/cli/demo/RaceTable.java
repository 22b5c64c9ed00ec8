package io.distlock.cli.demo;

import io.distlock.cli.Durations;
import io.distlock.cli.TextTable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Prints the runs of a spending race as a table: one row per run, one column per service, then the totals. */
final class RaceTable {

    private RaceTable() {
    }

    static void print(DemoContext ctx, List<RaceRun> runs, Function<RaceRun.Spend, String> serviceHeading,
            String spentVerb, String remainingHeading, String countHeading, Function<RaceRun, String> verdict) {
        List<String> headings = new ArrayList<>(List.of("run"));
        for (RaceRun.Spend s : runs.get(0).spends()) {
            headings.add(serviceHeading.apply(s));
        }
        headings.addAll(List.of(remainingHeading, countHeading, "time", "result"));
        TextTable table = new TextTable(headings.toArray(String[]::new));
        for (RaceRun run : runs) {
            List<Object> row = new ArrayList<>();
            row.add(run.locked() ? "with lock" : "without lock");
            for (RaceRun.Spend s : run.spends()) {
                String what = s.succeeded() ? spentVerb : "refused";
                row.add(what + " (read " + s.seen() + (run.locked() ? ", " + turn(run, s) + " in lock" : "") + ")");
            }
            row.add(run.remaining());
            row.add(countHeading.equals("sold") ? run.spent() : run.successes());
            row.add(Durations.showNanos(run.nanos()));
            row.add(verdict.apply(run));
            table.row(row.toArray());
        }
        ctx.out().println();
        table.print(ctx.out(), "  ");
        ctx.out().println();
    }

    /** 1st, 2nd, ...: the order in which the service held the lock, from the fencing tokens. */
    private static String turn(RaceRun run, RaceRun.Spend spend) {
        long before = run.spends().stream().filter(o -> o.fencingToken() < spend.fencingToken()).count();
        long n = before + 1;
        String suffix = n % 100 >= 11 && n % 100 <= 13 ? "th"
                : switch ((int) (n % 10)) {
                    case 1 -> "st";
                    case 2 -> "nd";
                    case 3 -> "rd";
                    default -> "th";
                };
        return n + suffix;
    }
}
