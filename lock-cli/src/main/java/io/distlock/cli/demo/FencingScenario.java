package io.distlock.cli.demo;

import io.distlock.LeaseModel;
import io.distlock.cli.Durations;
import io.distlock.cli.TextTable;
import java.time.Duration;
import java.util.List;

/**
 * The fencing story (Kleppmann): service A takes the lock and is paused (SIGSTOP) past its lease; service B takes
 * the lock and writes; A resumes and writes with its old token. Both records are rows of an SQL table (in the
 * store's database when the store is one, else in an H2 database served by this process). The plain record accepts
 * A's stale write and loses B's; the fenced record, written in transactions that start with
 * {@code SqlFence.advance(connection, lock, token)}, refuses it.
 */
public final class FencingScenario implements Scenario {

    /** The holder's lease on time-bound stores; short so the demo does not wait long. */
    static final Duration LEASE = Duration.ofSeconds(2);
    private static final Duration MARGIN = Duration.ofSeconds(60);

    /** What happened, for the verdict and for tests. */
    public record Outcome(long holderToken, long takerToken, String staleWriteToPlain, String staleWriteToFenced,
            String plainValue, String fencedValue, String holderRelease) {

        /** The fenced record refused the stale write and kept B's, and B's token is higher. */
        public boolean correct() {
            return takerToken > holderToken && staleWriteToFenced.startsWith("REFUSED")
                    && fencedValue.contains("service B");
        }
    }

    @Override
    public String key() {
        return "fencing";
    }

    @Override
    public int services(DemoContext ctx) {
        return 2;
    }

    @Override
    public String promise() {
        return "the stale write refused";
    }

    @Override
    public String title() {
        return "Fencing: a paused holder wakes up after its lease ran out";
    }

    @Override
    public boolean run(DemoContext ctx) {
        boolean session = ctx.leaseModel() == LeaseModel.SESSION;
        Prose.println(ctx.out(), "  ", "Service A takes the lock, then freezes (SIGSTOP: think of a long GC pause) "
                + (session ? "past its ZooKeeper session timeout (" + Durations.show(ctx.sessionTimeout()) + ")."
                        : "past its lease (" + Durations.show(LEASE) + ", auto-renew off)."));
        Prose.println(ctx.out(), "  ",
                "Service B takes the lock and writes. A wakes up and writes with its old token to a plain"
                + " record and to a fenced one.");
        Outcome outcome = play(ctx);
        ctx.out().println("  plain record now holds:  \"" + outcome.plainValue() + "\""
                + (outcome.plainValue().contains("service A") ? "   <- B's write was silently overwritten" : ""));
        ctx.out().println("  fenced record now holds: \"" + outcome.fencedValue() + "\""
                + (outcome.correct() ? "   <- the stale write was refused" : "   <- WRONG"));
        ctx.out().println();
        return outcome.correct();
    }

    /** Plays the story and prints its timeline. */
    public Outcome play(DemoContext ctx) {
        try (FencingDatabase db = FencingDatabase.open(ctx)) {
            ctx.out().println("  Both records are rows in " + db.shown() + ";");
            ctx.out().println("  the fenced one is written in transactions that begin with"
                    + " SqlFence.advance(connection, lock, token).");
            return play(ctx, db);
        }
    }

    private Outcome play(DemoContext ctx, FencingDatabase db) {
        String lock = ctx.lockName(key());
        boolean session = ctx.leaseModel() == LeaseModel.SESSION;
        Duration expiry = session ? ctx.sessionTimeout() : LEASE;
        TextTable timeline = new TextTable("time", "who", "fencing token", "what happened", "plain record",
                "fenced record");
        List<WorkerProcess> services = ctx.services().first(ctx, 2);
        WorkerProcess a = services.get(0);
        WorkerProcess b = services.get(1);
        String table = db.records().table();

        long t0 = System.nanoTime();
        a.send("HOLD", lock, Long.toString(LEASE.toMillis()));
        long tokenA = Long.parseLong(a.await("HELD", ServiceGroup.START_TIMEOUT)[0]);
        timeline.row(at(t0), a.label(), tokenA, "took the lock" + (session ? " (held while its session lives)"
                : " (lease " + Durations.show(LEASE) + ", no renewal)"));
        a.pause();
        String[] took;
        try {
            timeline.row(at(t0), a.label(), "", "frozen with SIGSTOP (pid " + a.pid() + ")");
            b.send("TAKE", lock, Long.toString(expiry.plus(MARGIN).toMillis()), db.url(), table,
                    "written by service B");
            ctx.out().println("  service A is frozen; service B waits for A's " + (session ? "session" : "lease")
                    + " to run out (~" + Durations.show(expiry) + ") ...");
            ctx.out().flush();
            long waitStart = System.nanoTime();
            took = b.await("DONE", expiry.plus(MARGIN).plus(MARGIN), () -> tick(ctx, waitStart, expiry));
            timeline.row(at(t0), b.label(), took[0], "took the lock after waiting "
                    + Durations.show(Duration.ofMillis(Long.parseLong(took[1]))) + ", wrote", took[2], took[3]);
        } finally {
            a.resume();
        }
        timeline.row(at(t0), a.label(), "", "resumed with SIGCONT, unaware it was frozen");
        a.send("WRITE", db.url(), table, "written by service A");
        String[] late = a.await("WROTE", ServiceGroup.START_TIMEOUT);
        timeline.row(at(t0), a.label(), tokenA, "wrote with its old token", late[0], headWord(late[1]));
        String released = a.await("DONE", ServiceGroup.START_TIMEOUT)[0];
        timeline.row(at(t0), a.label(), "", "release() -> " + headWord(released));
        ctx.out().println();
        timeline.print(ctx.out(), "  ");
        ctx.out().println();
        Prose.println(ctx.out(), "  ", "A's late write to the fenced record: " + late[1] + ".");
        Prose.println(ctx.out(), "  ", "A's release(): " + released + ".");
        return new Outcome(tokenA, Long.parseLong(took[0]), late[0], late[1], db.records().value(SqlRecords.PLAIN),
                db.records().value(SqlRecords.FENCED), released);
    }

    /** The first word of a worker's answer, for a narrow table cell; the whole answer is printed below it. */
    private static String headWord(String answer) {
        int space = answer.indexOf(' ');
        return space < 0 ? answer : answer.substring(0, space);
    }

    private static String at(long t0) {
        return Durations.showNanos(System.nanoTime() - t0);
    }

    private static void tick(DemoContext ctx, long start, Duration expiry) {
        long waited = System.nanoTime() - start;
        long secs = Duration.ofNanos(waited).toSeconds();
        long every = expiry.toSeconds() > 10 ? 5 : 2;
        if (secs > 0 && secs % every == 0) {
            ctx.out().println("    ... " + Durations.showNanos(waited));
            ctx.out().flush();
        }
    }
}
