package io.distlock.chaos.explore;

/**
 * The name of one explorer run, {@code store/scenario/step/fault} (e.g. {@code redis/lock/7/reply-lost}): the run
 * replays from it ({@code distlock explore --run redis/lock/7/reply-lost}).
 */
public record RunName(ExploreStore store, Scenario scenario, int step, Fault fault) {

    /** Parses {@code store/scenario/step/fault}. */
    public static RunName parse(String text) {
        String[] p = text.split("/");
        if (p.length != 4) {
            throw new IllegalArgumentException("a run name is store/scenario/step/fault, e.g. redis/lock/7/reply-lost;"
                    + " got '" + text + "'");
        }
        int step;
        try {
            step = Integer.parseInt(p[2]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the step of run '" + text + "' is not a number", e);
        }
        return new RunName(ExploreStore.of(p[0]), Scenario.of(p[1]), step, Fault.of(p[3]));
    }

    @Override
    public String toString() {
        return store.label() + "/" + scenario.label() + "/" + step + "/" + fault.label();
    }
}
