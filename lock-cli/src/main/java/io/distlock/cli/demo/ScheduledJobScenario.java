package io.distlock.cli.demo;

import io.distlock.cli.TextTable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The scheduled-job story: every service runs the same timer ("purge the cache every second"), and the job must run
 * once per tick, not once per service. The timers fire a little apart, as real ones do (clocks, GC pauses, load).
 * Without a lock each tick's job runs on every service; {@code tryRun(task)} skips while another service runs it,
 * but a timer that fires after the job finished runs it again; {@code tryRun(minHeld, task)} keeps the lock for
 * half a period after it was taken, so each tick runs exactly once.
 */
public final class ScheduledJobScenario implements Scenario {

    /** Timer period. */
    static final long PERIOD_MS = 1000;
    /** How many times each timer fires per run. */
    static final int TICKS = 3;
    /** How far apart the first and the last service's timers fire (spread evenly over the services). */
    static final long SPREAD_MS = 300;
    /** How long the job takes. */
    static final long JOB_MS = 150;
    /** releaseAfter's minimum hold: half a period, longer than the timers' spread, shorter than a period. */
    static final long MIN_HELD_MS = PERIOD_MS / 2;
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(120);
    /** Time for every service to get the command before the first tick. */
    private static final long START_DELAY_MS = 1500;

    @Override
    public String key() {
        return "scheduled-job";
    }

    @Override
    public int services(DemoContext ctx) {
        return ctx.processesOr(4);
    }

    @Override
    public String promise() {
        return "each tick's job ran once";
    }

    @Override
    public String title() {
        return "Scheduled job: every service's timer fires, the job must run once per tick";
    }

    @Override
    public boolean run(DemoContext ctx) {
        int count = services(ctx);
        Prose.println(ctx.out(), "  ", count + " services run the same job every " + PERIOD_MS + " ms, " + TICKS
                + " ticks per run; their timers fire up to " + SPREAD_MS + " ms apart (0-" + SPREAD_MS
                + " ms after each tick), the job takes " + JOB_MS + " ms.");
        Prose.println(ctx.out(), "  ", "minHeld = " + MIN_HELD_MS
                + " ms (half the period): the lock stays taken that long after "
                + "it was acquired, then frees by itself.");
        List<ScheduledJobRun> runs = runs(ctx);
        print(ctx, runs);
        return runs.get(2).exactlyOncePerTick();
    }

    /** Runs the timers without the lock, with {@code tryRun(task)}, and with {@code tryRun(minHeld, task)}. */
    public List<ScheduledJobRun> runs(DemoContext ctx) {
        List<ScheduledJobRun> runs = new ArrayList<>();
        for (ScheduledJobRun.Mode mode : ScheduledJobRun.Mode.values()) {
            runs.add(run(ctx, mode));
        }
        return runs;
    }

    private ScheduledJobRun run(DemoContext ctx, ScheduledJobRun.Mode mode) {
        List<WorkerProcess> workers = ctx.services().first(ctx, services(ctx));
        Path journal = ctx.dir().resolve(key() + "-" + mode.name().toLowerCase(Locale.ROOT) + ".txt");
        LockedFile file = new LockedFile(journal);
        file.write("");
        long startAt = System.currentTimeMillis() + START_DELAY_MS;
        long minHeld = mode == ScheduledJobRun.Mode.TRY_RUN_MIN_HELD ? MIN_HELD_MS : 0;
        for (int i = 0; i < workers.size(); i++) {
            long skew = SPREAD_MS * i / (workers.size() - 1);
            workers.get(i).send("SCHEDULE", Boolean.toString(mode != ScheduledJobRun.Mode.NO_LOCK),
                    ctx.lockName(key() + "-" + mode.name().toLowerCase(Locale.ROOT)), journal.toString(),
                    Integer.toString(TICKS), Long.toString(PERIOD_MS), Long.toString(skew),
                    Long.toString(JOB_MS), Long.toString(minHeld), Long.toString(startAt));
        }
        for (WorkerProcess w : workers) {
            w.await("DONE", RUN_TIMEOUT);
        }
        return ScheduledJobRun.parse(mode, TICKS, file.read());
    }

    private static void print(DemoContext ctx, List<ScheduledJobRun> runs) {
        // one row per tick, then the run's total and verdict: narrow however many services run the job
        TextTable table = new TextTable("run", "tick", "job runs", "by (service#fencing token)");
        for (ScheduledJobRun run : runs) {
            String shown = run.mode().shown();
            for (Map.Entry<Integer, List<ScheduledJobRun.JobRun>> tick : run.byTick().entrySet()) {
                table.row(shown, tick.getKey(), tick.getValue().size() + "x", who(tick.getValue()));
                shown = "";
            }
            table.row("", "all", run.runs().size() + " for " + TICKS, verdict(run));
        }
        ctx.out().println();
        table.print(ctx.out(), "  ");
        ctx.out().println();
    }

    private static String who(List<ScheduledJobRun.JobRun> tick) {
        return tick.stream().map(r -> r.service().replace("service ", "")
                + (r.fencingToken() > 0 ? "#" + r.fencingToken() : "")).collect(Collectors.joining(" "));
    }

    private static String verdict(ScheduledJobRun run) {
        if (run.exactlyOncePerTick()) {
            return "correct: once per tick";
        }
        int most = run.byTick().values().stream().mapToInt(List::size).max().orElse(0);
        String why = switch (run.mode()) {
            case NO_LOCK -> "every service ran it";
            case TRY_RUN -> "a timer that fired late ran it again";
            case TRY_RUN_MIN_HELD -> "minHeld did not cover the timers' spread";
        };
        return "WRONG: up to " + most + " runs per tick (" + why + ")";
    }
}
