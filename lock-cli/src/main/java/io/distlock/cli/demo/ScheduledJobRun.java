package io.distlock.cli.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One run of the scheduled-job scenario: which service ran the job at which tick, read back from the shared
 * journal the jobs append to ({@code tick TAB service TAB fencingToken} per line).
 *
 * @param mode how the services guarded the job
 * @param ticks how many times every timer fired
 * @param runs each job run, in the order they were journaled
 */
public record ScheduledJobRun(Mode mode, int ticks, List<JobRun> runs) {

    /** How the services guard the job. */
    public enum Mode {
        /** Every service runs the job whenever its timer fires. */
        NO_LOCK("without lock"),
        /** {@code tryRun(task)}: skip while another service runs it, free at once when done. */
        TRY_RUN("tryRun(task)"),
        /** {@code tryRun(minHeld, task)}: as TRY_RUN, and the lock stays taken until minHeld has passed. */
        TRY_RUN_MIN_HELD("tryRun(minHeld, task)");

        private final String shown;

        Mode(String shown) {
            this.shown = shown;
        }

        /** How the table shows it. */
        public String shown() {
            return shown;
        }
    }

    /**
     * One run of the job.
     *
     * @param tick the timer tick it ran for, from 1
     * @param service the service that ran it
     * @param fencingToken its lease's token (0 without the lock)
     */
    public record JobRun(int tick, String service, long fencingToken) {
    }

    /** Reads a journal written by the services. */
    static ScheduledJobRun parse(Mode mode, int ticks, String journal) {
        List<JobRun> runs = new ArrayList<>();
        for (String line : journal.split("\n")) {
            if (!line.isBlank()) {
                String[] f = line.split(DemoWorker.SEP, -1);
                runs.add(new JobRun(Integer.parseInt(f[0]), f[1], Long.parseLong(f[2])));
            }
        }
        return new ScheduledJobRun(mode, ticks, List.copyOf(runs));
    }

    /** The runs of each tick, ticks 1..n, including ticks nobody ran. */
    public Map<Integer, List<JobRun>> byTick() {
        Map<Integer, List<JobRun>> byTick = new TreeMap<>();
        for (int t = 1; t <= ticks; t++) {
            byTick.put(t, new ArrayList<>());
        }
        runs.forEach(r -> byTick.computeIfAbsent(r.tick(), t -> new ArrayList<>()).add(r));
        return byTick;
    }

    /** True if every tick's job ran exactly once, each under a larger fencing token than the tick before. */
    public boolean exactlyOncePerTick() {
        long lastToken = 0;
        for (List<JobRun> tick : byTick().values()) {
            if (tick.size() != 1 || (mode != Mode.NO_LOCK && tick.get(0).fencingToken() <= lastToken)) {
                return false;
            }
            lastToken = tick.get(0).fencingToken();
        }
        return true;
    }
}
