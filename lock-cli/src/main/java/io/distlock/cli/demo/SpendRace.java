package io.distlock.cli.demo;

import io.distlock.cli.Durations;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one spending race: every service, released at the same instant by a start signal, reads the shared counter,
 * and if there is enough works a moment and subtracts its amount; with or without the distributed lock around it.
 */
final class SpendRace {

    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(120);

    private final DemoContext ctx;
    private final List<WorkerProcess> workers;
    private final String scenario;
    private final long initial;
    private final long[] amounts;

    SpendRace(DemoContext ctx, String scenario, long initial, long[] amounts) {
        this.ctx = ctx;
        this.workers = ctx.services().first(ctx, amounts.length);
        this.scenario = scenario;
        this.initial = initial;
        this.amounts = amounts.clone();
    }

    RaceRun run(boolean locked) {
        Path file = ctx.dir().resolve(scenario + (locked ? "-with-lock" : "-without-lock") + ".txt");
        SharedCounter counter = new SharedCounter(file);
        counter.set(initial);
        for (int i = 0; i < workers.size(); i++) {
            workers.get(i).send("SPEND", Boolean.toString(locked), ctx.lockName(scenario), file.toString(),
                    Long.toString(amounts[i]), Long.toString(DemoContext.WORK_PAUSE_MS));
        }
        for (WorkerProcess w : workers) {
            w.await("ARMED", ServiceGroup.START_TIMEOUT);
        }
        long start = System.nanoTime();
        for (WorkerProcess w : workers) {
            w.send("GO");
        }
        List<RaceRun.Spend> spends = new ArrayList<>();
        for (int i = 0; i < workers.size(); i++) {
            WorkerProcess w = workers.get(i);
            String[] done = w.await("DONE", RUN_TIMEOUT, () -> progress(w, start));
            spends.add(new RaceRun.Spend(w.label(), amounts[i], done[0].equals("ok"), Long.parseLong(done[1]),
                    Long.parseLong(done[2])));
        }
        long nanos = System.nanoTime() - start;
        return new RaceRun(locked, spends, initial, counter.get(), nanos);
    }

    private void progress(WorkerProcess w, long start) {
        long waited = System.nanoTime() - start;
        if (waited > Duration.ofSeconds(5).toNanos()) {
            ctx.out().println("    ... waiting for " + w.label() + " (" + Durations.showNanos(waited) + ")");
            ctx.out().flush();
        }
    }
}
