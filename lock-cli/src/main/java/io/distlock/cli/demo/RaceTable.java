package io.distlock.cli.demo;

import io.distlock.cli.Durations;
import io.distlock.cli.TextTable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Prints the runs of a spending race as a table: one column per run (without, then with the lock), one row per
 * service, then the totals; laid out this way round so that it stays narrow however many services contend.
 */
final class RaceTable {

    private RaceTable() {
    }

    static void print(DemoContext ctx, List<RaceRun> runs, Function<RaceRun.Spend, String> serviceHeading,
            String spentVerb, String remainingHeading, String countHeading, Function<RaceRun, String> verdict) {
        List<String> headings = new ArrayList<>(List.of("service"));
        runs.forEach(run -> headings.add(run.locked() ? "with lock" : "without lock"));
        TextTable table = new TextTable(headings.toArray(String[]::new));
        List<RaceRun.Spend> services = runs.get(0).spends();
        for (int i = 0; i < services.size(); i++) {
            List<Object> row = new ArrayList<>(List.of(serviceHeading.apply(services.get(i))));
            for (RaceRun run : runs) {
                RaceRun.Spend s = run.spends().get(i);
                String what = s.succeeded() ? spentVerb : "refused";
                row.add(what + " (read " + s.seen() + (run.locked() ? ", " + turn(run, s) + " in lock" : "") + ")");
            }
            table.row(row.toArray());
        }
        table.row(totals(remainingHeading, runs, RaceRun::remaining));
        table.row(totals(countHeading, runs, run -> countHeading.equals("sold") ? run.spent() : run.successes()));
        table.row(totals("time", runs, run -> Durations.showNanos(run.nanos())));
        table.row(totals("result", runs, verdict));
        ctx.out().println();
        table.print(ctx.out(), "  ");
        ctx.out().println();
    }

    private static Object[] totals(String heading, List<RaceRun> runs, Function<RaceRun, ?> cell) {
        List<Object> row = new ArrayList<>(List.of(heading));
        runs.forEach(run -> row.add(cell.apply(run)));
        return row.toArray();
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
