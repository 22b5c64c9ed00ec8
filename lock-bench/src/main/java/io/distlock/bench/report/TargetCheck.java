package io.distlock.bench.report;

/**
 * One target from issue 8 checked against a run: met, missed (by how much), or not measurable in this run.
 *
 * @param store the store
 * @param target what was aimed for, e.g. {@code uncontended-1 >= 0.85x raw}
 * @param measured what was measured, e.g. {@code 0.91x (7,212 vs 7,925 ops/s)}
 * @param verdict MET, MISSED or NOT MEASURED
 * @param shortfall for a miss, by how much (e.g. {@code 12% short}); else empty
 * @param contender the distlock scenario to profile on a miss, or null
 */
public record TargetCheck(String store, String target, String measured, Verdict verdict, String shortfall,
                          String contender, String scenario) {

    /** The outcome of a check. */
    public enum Verdict { MET, MISSED, NOT_MEASURED }
}
