package io.distlock.bench.core;

import java.time.Duration;

/** One way of exercising a lock (uncontended pairs, one contended name, hand-off latency). */
public interface Scenario {

    /** Short stable id used in the report and on the command line, e.g. {@code uncontended-8}. */
    String id();

    /** One line saying what is measured. */
    String title();

    /** Whether this scenario can run {@code contender} (raw limits cannot wait, so they skip contended ones). */
    boolean appliesTo(Contender contender);

    /** Whether the scenario's main figure is throughput (ops/s) or latency only. */
    default boolean reportsThroughput() {
        return true;
    }

    /**
     * Runs the scenario for about {@code duration} on locks whose names start with {@code namePrefix}.
     *
     * @throws Exception the first failure of any worker; the run is then reported as failed
     */
    Sample run(Contender contender, String namePrefix, Duration duration) throws Exception;
}
