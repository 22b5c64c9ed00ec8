package io.distlock.tck.explore;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The interleaving explorer's command: runs seeded programs of acquire, tryAcquire, release, extend, releaseAfter,
 * nested acquisition, background renewal, semaphore permits, leadership and ScheduledOnce on one or two names from
 * two or three threads, with one fault ({@link ExplorerProgram.Fault}) at a point the scheduler picks, over the stub
 * store (with a lease-time limit), and prints every
 * failing seed with its program, violations and the scheduler's choices. Arguments: {@code --seed N} replays one
 * seed; {@code --from N --seconds S} runs seeds from N for S seconds (default from 1 for 60 s); {@code --pending
 * skip} leaves out the runs that show only a defect whose fix is pending
 * ({@link InterleavingRun.Outcome#pendingDefect}).
 * Exits 1 if a run failed.
 */
public final class InterleavingExplorer {

    private InterleavingExplorer() {
    }

    /** Runs the explorer; see the class comment for the arguments. */
    public static void main(String[] args) throws InterruptedException {
        long from = 1;
        long seconds = 60;
        Long only = null;
        boolean skipPending = false;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--seed" -> only = Long.parseLong(args[i + 1]);
                case "--from" -> from = Long.parseLong(args[i + 1]);
                case "--seconds" -> seconds = Long.parseLong(args[i + 1]);
                case "--pending" -> skipPending = args[i + 1].equals("skip");
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + " (use --seed N, or --from N --seconds S)");
            }
        }
        List<InterleavingRun.Outcome> failed = only != null ? explore(only, 1, Duration.ofDays(1))
                : explore(from, Long.MAX_VALUE, Duration.ofSeconds(seconds));
        boolean skip = skipPending;
        List<InterleavingRun.Outcome> shown = failed.stream().filter(o -> !skip || o.pendingDefect() == null).toList();
        shown.forEach(o -> System.out.println("FAILED"
                + (o.pendingDefect() == null ? "" : " (pending " + o.pendingDefect() + ")") + " " + o.report()));
        System.out.println("interleaving explorer: " + shown.size() + " failed runs shown");
        System.exit(shown.isEmpty() ? 0 : 1);
    }

    /**
     * Runs seeds {@code from}, {@code from+1}, ... until {@code count} have run or {@code budget} is spent, and
     * returns the failed outcomes. Prints a summary line.
     */
    static List<InterleavingRun.Outcome> explore(long from, long count, Duration budget) throws InterruptedException {
        long end = System.nanoTime() + budget.toNanos();
        List<InterleavingRun.Outcome> failed = new ArrayList<>();
        long runs = 0;
        for (long seed = from; runs < count && System.nanoTime() - end < 0; seed++, runs++) {
            InterleavingRun.Outcome outcome = InterleavingRun.run(seed);
            if (outcome.failed()) {
                failed.add(outcome);
            }
        }
        System.out.println("interleaving explorer: " + runs + " runs from seed " + from + ", " + failed.size()
                + " failed");
        return failed;
    }
}
