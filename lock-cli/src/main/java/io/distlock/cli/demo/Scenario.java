package io.distlock.cli.demo;

/** One story the demo tells: it runs its services, prints its table and says whether the locked result was right. */
interface Scenario {

    /** The name used by {@code --scenario}. */
    String key();

    /** How many services the scenario runs. */
    int services(DemoContext ctx);

    /** What a correct run shows, for the summary line, e.g. "no oversell". */
    String promise();

    /** The heading printed above the table. */
    String title();

    /**
     * Runs the scenario and prints its table.
     *
     * @return true if the run with the lock (or fencing) gave the correct result
     */
    boolean run(DemoContext ctx);
}
