package io.distlock.cli.demo;

import java.util.List;

/**
 * One run of a spending race (points or stock): what each service did and what was left.
 *
 * @param locked whether the services held the distributed lock around check-and-spend
 * @param spends what each service did, in service order
 * @param initial the value before the run
 * @param remaining the value after the run
 * @param nanos how long the run took, from the start signal to the last answer
 */
public record RaceRun(boolean locked, List<Spend> spends, long initial, long remaining, long nanos) {

    /**
     * What one service did.
     *
     * @param service its label
     * @param amount what it tried to spend
     * @param succeeded whether it found enough and spent it
     * @param seen the value it read before deciding
     * @param fencingToken its lease's token (0 without the lock)
     */
    public record Spend(String service, long amount, boolean succeeded, long seen, long fencingToken) {
    }

    /** How many services spent. */
    public long successes() {
        return spends.stream().filter(Spend::succeeded).count();
    }

    /** The total the services spent. */
    public long spent() {
        return spends.stream().filter(Spend::succeeded).mapToLong(Spend::amount).sum();
    }

    /** True if nothing was spent that was not there: never below zero and the books balance. */
    public boolean consistent() {
        return remaining >= 0 && spent() + remaining == initial;
    }
}
