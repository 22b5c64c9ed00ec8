package io.distlock.bench.report;

import io.distlock.bench.core.Role;

/**
 * One performance target checked against a run: met, missed (by how much), or not measurable in this run.
 *
 * @param store the store
 * @param target what was aimed for, e.g. {@code uncontended-1 >= 0.85x raw}
 * @param measured what was measured, e.g. {@code 0.91x (7,212 vs 7,925 ops/s)}
 * @param verdict MET, MISSED or NOT MEASURED
 * @param shortfall for a miss, by how much (e.g. {@code 12% short}); else empty
 * @param contender the role to profile on a miss (distlock), or null
 * @param scenario the scenario to profile on a miss, or null
 * @param value the key figure (a ratio, milliseconds or round trips), NaN when not measured; kept in the history
 * @param why for a miss, what the counts show about it, computed from the measured figures; else empty
 */
public record TargetCheck(String store, String target, String measured, Verdict verdict, String shortfall,
                          Role contender, String scenario, double value, String why) {

    /** A check with no explanation. */
    public TargetCheck(String store, String target, String measured, Verdict verdict, String shortfall,
                       Role contender, String scenario, double value) {
        this(store, target, measured, verdict, shortfall, contender, scenario, value, "");
    }

    /** This check with {@code why} stated, if it missed; a check that did not miss keeps an empty why. */
    TargetCheck because(String why) {
        return verdict == Verdict.MISSED ? new TargetCheck(store, target, measured, verdict, shortfall, contender,
                scenario, value, why) : this;
    }

    /** The outcome of a check. */
    public enum Verdict { MET, MISSED, NOT_MEASURED }

    /** A target that could not be checked in this run, and why. */
    static TargetCheck notMeasured(String store, String target, String why) {
        return new TargetCheck(store, target, why, Verdict.NOT_MEASURED, "", null, null, Double.NaN);
    }
}
