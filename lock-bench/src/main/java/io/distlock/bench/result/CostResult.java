package io.distlock.bench.result;

import io.distlock.bench.core.Role;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;

/** The counted cost of one contender in one cost scenario over several runs, with median and spread. */
public final class CostResult {

    private final String contender;
    private final Role role;
    private final String scenario;
    private final List<OpCost> runs = new ArrayList<>();
    private String failure;

    public CostResult(String contender, Role role, String scenario) {
        this.contender = contender;
        this.role = role;
        this.scenario = scenario;
    }

    public String contender() {
        return contender;
    }

    public Role role() {
        return role;
    }

    public String scenario() {
        return scenario;
    }

    public List<OpCost> runs() {
        return runs;
    }

    public void add(OpCost cost) {
        runs.add(cost);
    }

    public void fail(String message) {
        this.failure = message;
    }

    public String failure() {
        return failure;
    }

    public boolean usable() {
        return failure == null && !runs.isEmpty();
    }

    /** Median of a figure over the runs (NaN if none is known). */
    public double median(ToDoubleFunction<OpCost> figure) {
        double[] v = values(figure);
        if (v.length == 0) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    public double min(ToDoubleFunction<OpCost> figure) {
        double[] v = values(figure);
        return v.length == 0 ? Double.NaN : v[0];
    }

    public double max(ToDoubleFunction<OpCost> figure) {
        double[] v = values(figure);
        return v.length == 0 ? Double.NaN : v[v.length - 1];
    }

    private double[] values(ToDoubleFunction<OpCost> figure) {
        return runs.stream().mapToDouble(figure).filter(d -> !Double.isNaN(d) && d >= 0).sorted().toArray();
    }

    @Override
    public String toString() {
        return contender + " " + scenario + " " + Arrays.toString(runs.toArray());
    }
}
