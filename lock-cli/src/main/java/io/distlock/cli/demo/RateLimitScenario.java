package io.distlock.cli.demo;

import io.distlock.cli.Durations;
import io.distlock.cli.TextTable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * The rate-limited API story: a partner API allows {@value #LIMIT} calls at once, and several services call it at
 * the same instant. Without coordination the API sees every service's call at once; with a permit of
 * {@code store.semaphore(name, 2)} around each call it never sees more than {@value #LIMIT}.
 */
public final class RateLimitScenario implements Scenario {

    /** How many calls the API allows at once, and the semaphore's limit. */
    public static final int LIMIT = 2;
    /** Calls each service makes, one after the other. */
    public static final int CALLS = 2;
    /** How long the API takes for a call. */
    static final long CALL_MS = DemoContext.WORK_PAUSE_MS;
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(120);

    @Override
    public String key() {
        return "rate-limit";
    }

    @Override
    public int services(DemoContext ctx) {
        return ctx.processesOr(4);
    }

    @Override
    public String promise() {
        return "never more than " + LIMIT + " API calls at once";
    }

    @Override
    public String title() {
        return "Rate-limited API: at most " + LIMIT + " calls at once, from every service together";
    }

    @Override
    public boolean run(DemoContext ctx) {
        Prose.println(ctx.out(), "  ", "A partner API allows " + LIMIT + " calls at once. At the same instant each of "
                + services(ctx) + " services makes " + CALLS + " calls in a row; a call takes " + CALL_MS + " ms.");
        Prose.println(ctx.out(), "  ", "The API counts the calls it has in progress; a call that arrives while " + LIMIT
                + " are in progress is over the limit (a real API answers 429).");
        List<ApiCallRun> runs = runs(ctx);
        print(ctx, runs);
        return correct(runs.get(1));
    }

    /** Runs the calls without, then with, the semaphore. */
    public List<ApiCallRun> runs(DemoContext ctx) {
        return List.of(run(ctx, false), run(ctx, true));
    }

    /** With the semaphore: never more than the limit at once, no call over it, every call made. */
    public static boolean correct(ApiCallRun run) {
        return run.withinLimit(CALLS);
    }

    private ApiCallRun run(DemoContext ctx, boolean withSemaphore) {
        List<WorkerProcess> workers = ctx.services().first(ctx, services(ctx));
        Path file = ctx.dir().resolve(key() + (withSemaphore ? "-with-semaphore" : "-without-semaphore") + ".txt");
        RateLimitedApi api = new RateLimitedApi(file);
        api.reset();
        for (WorkerProcess w : workers) {
            w.send("CALL", Boolean.toString(withSemaphore), ctx.lockName(key()), file.toString(),
                    Integer.toString(LIMIT), Integer.toString(CALLS), Long.toString(CALL_MS));
        }
        for (WorkerProcess w : workers) {
            w.await("ARMED", ServiceGroup.START_TIMEOUT);
        }
        long start = System.nanoTime();
        for (WorkerProcess w : workers) {
            w.send("GO");
        }
        List<ApiCallRun.Caller> callers = new ArrayList<>();
        for (WorkerProcess w : workers) {
            String[] done = w.await("DONE", RUN_TIMEOUT);
            List<Long> tokens = done.length > 3 && !done[3].isEmpty()
                    ? Arrays.stream(done[3].split(",")).map(Long::parseLong).toList() : List.of();
            callers.add(new ApiCallRun.Caller(w.label(), Integer.parseInt(done[0]), Integer.parseInt(done[1]),
                    Duration.ofMillis(Long.parseLong(done[2])).toNanos(), tokens));
        }
        long nanos = System.nanoTime() - start;
        return new ApiCallRun(withSemaphore, List.copyOf(callers), api.counts(), LIMIT, nanos);
    }

    private static void print(DemoContext ctx, List<ApiCallRun> runs) {
        // one column per run, one row per service: narrow however many services call
        List<String> headings = new ArrayList<>(List.of("service"));
        runs.forEach(run -> headings.add(run.withSemaphore() ? "semaphore(" + LIMIT + ")" : "without semaphore"));
        TextTable table = new TextTable(headings.toArray(String[]::new));
        for (int i = 0; i < runs.get(0).services().size(); i++) {
            int service = i;
            table.row(totals(runs.get(0).services().get(i).service(), runs,
                    run -> cell(run, run.services().get(service))));
        }
        table.row(totals("most at once", runs, ApiCallRun::mostAtOnce));
        table.row(totals("over limit", runs, run -> run.api().overLimit() + " of " + run.api().calls()));
        table.row(totals("time", runs, run -> Durations.showNanos(run.nanos())));
        table.row(totals("result", runs, RateLimitScenario::verdict));
        ctx.out().println();
        table.print(ctx.out(), "  ");
        ctx.out().println();
    }

    private static Object[] totals(String heading, List<ApiCallRun> runs, Function<ApiCallRun, ?> cell) {
        List<Object> row = new ArrayList<>(List.of(heading));
        runs.forEach(run -> row.add(cell.apply(run)));
        return row.toArray();
    }

    private static String cell(ApiCallRun run, ApiCallRun.Caller s) {
        if (!run.withSemaphore()) {
            return s.calls() + " calls, " + s.overLimit() + " over limit";
        }
        return s.calls() + " calls, waited " + Durations.showNanos(s.waitedNanos()) + " for permits";
    }

    private static String verdict(ApiCallRun run) {
        if (correct(run)) {
            return "correct: never more than " + LIMIT + " at once"
                    + (run.withSemaphore() ? "" : " (this time: the race is timing-dependent)");
        }
        if (run.mostAtOnce() > LIMIT) {
            return "WRONG: " + run.mostAtOnce() + " calls at once, the API allows " + LIMIT;
        }
        return "WRONG: " + run.api().overLimit() + " calls over the limit, " + run.api().calls() + " of "
                + CALLS * run.services().size() + " calls made";
    }
}
