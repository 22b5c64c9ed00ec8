package io.distlock.bench.result;

import io.distlock.bench.core.Role;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * Every measured run of one contender in one scenario: ops/s per run (the median is reported), the latencies of
 * all runs merged, and the failure that stopped it, if any.
 */
public final class ScenarioResult {

    private final String contender;
    private final Role role;
    private final String scenario;
    private final boolean throughput;
    private final List<Double> opsPerSecond = new ArrayList<>();
    private final Histogram latencyNanos = new Histogram(600_000_000_000L, 3);
    private long operations;
    private long crossClientHandoffs;
    private String failure;
    private long callingBytes;
    private long otherBytes;
    private long allocationOperations;

    public ScenarioResult(String contender, Role role, String scenario, boolean throughput) {
        this.contender = contender;
        this.role = role;
        this.scenario = scenario;
        this.throughput = throughput;
    }

    /** Adds one measured run. */
    public void add(double opsPerSecond, long operations, Histogram latencies, long crossClientHandoffs) {
        this.opsPerSecond.add(opsPerSecond);
        this.operations += operations;
        this.crossClientHandoffs += crossClientHandoffs;
        latencyNanos.add(latencies);
    }

    /**
     * Adds the heap bytes one measured run of {@code operations} allocated in the benchmark threads' loops and in
     * every other thread of the JVM; a run without figures (negative) is left out.
     */
    public void addAllocation(long operations, long callingThreadBytes, long otherThreadBytes) {
        if (callingThreadBytes >= 0 && otherThreadBytes >= 0 && operations > 0) {
            callingBytes += callingThreadBytes;
            otherBytes += otherThreadBytes;
            allocationOperations += operations;
        }
    }

    /** Heap bytes per operation allocated by the benchmark threads themselves; NaN if not measured. */
    public double callingBytesPerOperation() {
        return allocationOperations == 0 ? Double.NaN : (double) callingBytes / allocationOperations;
    }

    /** Heap bytes per operation allocated meanwhile by every other thread of the JVM; NaN if not measured. */
    public double otherBytesPerOperation() {
        return allocationOperations == 0 ? Double.NaN : (double) otherBytes / allocationOperations;
    }

    /** Marks the contender as failed in this scenario; later runs are skipped. */
    public void fail(String message) {
        this.failure = message;
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

    /** Whether ops/s is this scenario's figure (false: latency only). */
    public boolean throughput() {
        return throughput;
    }

    /** Null unless the contender failed. */
    public String failure() {
        return failure;
    }

    public boolean failed() {
        return failure != null;
    }

    /** Number of measured runs. */
    public int runs() {
        return opsPerSecond.size();
    }

    /** The median of the runs' ops/s (mean of the middle two for an even count); 0 without runs. */
    public double medianOpsPerSecond() {
        if (opsPerSecond.isEmpty()) {
            return 0;
        }
        List<Double> sorted = new ArrayList<>(opsPerSecond);
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    public double minOpsPerSecond() {
        return opsPerSecond.stream().mapToDouble(Double::doubleValue).min().orElse(0);
    }

    public double maxOpsPerSecond() {
        return opsPerSecond.stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }

    /** Latency at {@code percentile} (0-100) in milliseconds over all runs. */
    public double latencyMillis(double percentile) {
        return latencyNanos.getValueAtPercentile(percentile) / 1e6;
    }

    /** Number of latency samples over all runs. */
    public long samples() {
        return latencyNanos.getTotalCount();
    }

    /** Share of acquisitions that went to a different client than the one before (contended runs). */
    public double crossClientShare() {
        return operations == 0 ? 0 : (double) crossClientHandoffs / operations;
    }

    /** Whether this result has any measured run and no failure. */
    public boolean usable() {
        return !failed() && runs() > 0;
    }
}
