package io.distlock.cli.demo;

import java.util.Arrays;
import java.util.List;

/**
 * The library-points story: a member has 10 points, a bookmark costs 7, and a double click sends "redeem" to two
 * services at the same instant. Without a lock both see 10 and both redeem (balance -4); with the lock exactly one
 * redeems and the balance is 3.
 */
public final class PointsScenario implements Scenario {

    /** The member's points before the double click. */
    public static final long POINTS = 10;
    /** What a bookmark costs. */
    public static final long COST = 7;

    @Override
    public String key() {
        return "points";
    }

    @Override
    public int services(DemoContext ctx) {
        return ctx.processesOr(2);
    }

    @Override
    public String promise() {
        return "no negative balance";
    }

    @Override
    public String title() {
        return "Points redemption: a double click reaches two services";
    }

    @Override
    public boolean run(DemoContext ctx) {
        Prose.println(ctx.out(), "  ", "A member has " + POINTS + " points; a bookmark costs " + COST
                + ". A double click sends"
                + " \"redeem\" to " + servicesPhrase(ctx) + " at the same instant.");
        ctx.out().println("  Each service reads the balance, checks it covers " + COST + ", works "
                + DemoContext.WORK_PAUSE_MS + " ms, then deducts " + COST + ".");
        List<RaceRun> runs = races(ctx);
        RaceTable.print(ctx, runs, RaceRun.Spend::service, "redeemed", "balance", "bookmarks",
                PointsScenario::verdict);
        return correct(runs.get(1));
    }

    /** Runs the race without, then with, the lock; returns both runs. */
    public List<RaceRun> races(DemoContext ctx) {
        int count = ctx.processesOr(2);
        long[] amounts = new long[count];
        Arrays.fill(amounts, COST);
        SpendRace race = new SpendRace(ctx, key(), POINTS, amounts);
        return List.of(race.run(false), race.run(true));
    }

    /** With the lock exactly one redemption succeeds and the balance is {@code POINTS - COST}. */
    public static boolean correct(RaceRun run) {
        return run.successes() == 1 && run.remaining() == POINTS - COST && run.consistent();
    }

    private static String verdict(RaceRun run) {
        if (run.remaining() < 0) {
            return "WRONG: " + run.successes() + " bookmarks for " + POINTS + " points, balance " + run.remaining();
        }
        if (correct(run)) {
            return run.locked() ? "correct" : "correct this time (the race is timing-dependent)";
        }
        return "WRONG: balance " + run.remaining() + " after " + run.successes() + " redemptions";
    }

    private static String servicesPhrase(DemoContext ctx) {
        int count = ctx.processesOr(2);
        return count == 2 ? "service A and service B" : count + " services (A-" + (char) ('A' + count - 1) + ")";
    }
}
