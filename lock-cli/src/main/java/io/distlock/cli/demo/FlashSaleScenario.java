package io.distlock.cli.demo;

import java.util.List;

/**
 * The flash-sale story: stock 10, several buyers of 1-6 units reach different services at once. Without a lock
 * they all see 10 and the shop oversells; with the lock it never does, and sold + stock = 10.
 */
public final class FlashSaleScenario implements Scenario {

    /** Units in stock when the sale opens. */
    public static final long STOCK = 10;
    private static final long[] ORDER_SIZES = {6, 5, 4, 3, 2, 1};

    @Override
    public String key() {
        return "flash-sale";
    }

    @Override
    public int services(DemoContext ctx) {
        return ctx.processesOr(4);
    }

    @Override
    public String promise() {
        return "no oversell";
    }

    @Override
    public String title() {
        return "Flash sale: buyers reach several services at once";
    }

    @Override
    public boolean run(DemoContext ctx) {
        long[] amounts = amounts(ctx.processesOr(4));
        StringBuilder orders = new StringBuilder();
        for (int i = 0; i < amounts.length; i++) {
            orders.append(i == 0 ? "" : ", ").append((char) ('A' + i)).append(' ').append(amounts[i]);
        }
        Prose.println(ctx.out(), "  ", "Stock is " + STOCK + ". At the same instant each service takes an order ("
                + orders + " units).");
        ctx.out().println("  Each service reads the stock, checks it covers the order, works "
                + DemoContext.WORK_PAUSE_MS + " ms, then deducts the order.");
        List<RaceRun> runs = races(ctx, amounts);
        RaceTable.print(ctx, runs, s -> s.service() + " (" + s.amount() + ")", "sold", "stock", "sold",
                FlashSaleScenario::verdict);
        return correct(runs.get(1));
    }

    /** Runs the race without, then with, the lock. */
    public List<RaceRun> races(DemoContext ctx, long[] amounts) {
        SpendRace race = new SpendRace(ctx, key(), STOCK, amounts);
        return List.of(race.run(false), race.run(true));
    }

    /** Order sizes 6, 5, 4, 3, 2, 1, 6, ... for {@code count} buyers. */
    static long[] amounts(int count) {
        long[] amounts = new long[count];
        for (int i = 0; i < count; i++) {
            amounts[i] = ORDER_SIZES[i % ORDER_SIZES.length];
        }
        return amounts;
    }

    /** Never oversold: stock never below zero, sold + stock = 10. */
    public static boolean correct(RaceRun run) {
        return run.consistent();
    }

    private static String verdict(RaceRun run) {
        if (run.remaining() < 0) {
            return "WRONG: OVERSOLD by " + (-run.remaining()) + " (sold " + run.spent() + " of " + STOCK + ")";
        }
        if (!run.consistent()) {
            return "WRONG: sold " + run.spent() + " + stock " + run.remaining() + " != " + STOCK;
        }
        return "correct: sold + stock = " + STOCK + (run.locked() ? "" : " (the race is timing-dependent)");
    }
}
