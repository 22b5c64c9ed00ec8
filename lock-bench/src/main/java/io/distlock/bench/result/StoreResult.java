package io.distlock.bench.result;

import io.distlock.bench.core.Role;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Everything measured on one store: scenario results, round trips per pair, held leases, notes. */
public final class StoreResult {

    private final String store;
    private final String server;
    private final List<ScenarioResult> scenarios = new ArrayList<>();
    private final Map<String, WireCost> roundTripsPerPair = new LinkedHashMap<>();
    private final List<HeldLeasesResult> heldLeases = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final List<CostResult> costs = new ArrayList<>();
    private final Map<String, StoreResult> atRoundTripTime = new LinkedHashMap<>();
    private final Map<String, List<CostResult>> costsAtRoundTripTime = new LinkedHashMap<>();
    private final List<WaitersPoint> waiters = new ArrayList<>();
    private final List<NamesOnceResult> namesOnce = new ArrayList<>();
    private final List<HeldLeasesResult> heldCurve = new ArrayList<>();
    private final List<String> profiles = new ArrayList<>();
    private double loadAtStart = -1;
    private double loadAtEnd = -1;

    public StoreResult(String store, String server) {
        this.store = store;
        this.server = server;
    }

    /** Records the machine's 1-minute load average when this store's measurements started and ended. */
    public void load(double atStart, double atEnd) {
        this.loadAtStart = atStart;
        this.loadAtEnd = atEnd;
    }

    /** The 1-minute load average when this store's measurements started (-1 if unknown). */
    public double loadAtStart() {
        return loadAtStart;
    }

    /** The 1-minute load average when this store's measurements ended (-1 if unknown). */
    public double loadAtEnd() {
        return loadAtEnd;
    }

    public String store() {
        return store;
    }

    public String server() {
        return server;
    }

    public List<ScenarioResult> scenarios() {
        return scenarios;
    }

    /** Round trips per uncontended acquire/release pair by contender name (counted through the proxy). */
    public Map<String, WireCost> roundTripsPerPair() {
        return roundTripsPerPair;
    }

    public List<HeldLeasesResult> heldLeases() {
        return heldLeases;
    }

    /** Counted cost per operation by contender and loop (pair, hand-off, semaphore pair). */
    public List<CostResult> costs() {
        return costs;
    }

    /**
     * The counted costs per operation run again through a delaying proxy, by round-trip time label (e.g.
     * {@code 2 ms}): the same counts, and time per operation where the network, not the host's CPU, dominates.
     */
    public Map<String, List<CostResult>> costsAtRoundTripTime() {
        return costsAtRoundTripTime;
    }

    /** The scenarios re-run through a delaying proxy, by round-trip time label (e.g. {@code 0.5 ms}). */
    public Map<String, StoreResult> atRoundTripTime() {
        return atRoundTripTime;
    }

    /** The waiters curve: cost per acquisition as clients on one name grow. */
    public List<WaitersPoint> waiters() {
        return waiters;
    }

    /** What names used once leave in the store. */
    public List<NamesOnceResult> namesOnce() {
        return namesOnce;
    }

    /** The held-leases curve: renewal round trips and heap per lease as held leases grow. */
    public List<HeldLeasesResult> heldCurve() {
        return heldCurve;
    }

    /** Free-text observations (failures, skipped parts), shown under the store's tables. */
    public List<String> notes() {
        return notes;
    }

    /** Markdown snippets of JFR profiles taken for missed targets. */
    public List<String> profiles() {
        return profiles;
    }

    /** The result of {@code contender} in {@code scenario}, if it ran. */
    public Optional<ScenarioResult> find(String contender, String scenario) {
        return scenarios.stream()
                .filter(r -> r.contender().equals(contender) && r.scenario().equals(scenario))
                .findFirst();
    }

    /** The usable result of the first contender with {@code role} in {@code scenario}. */
    public Optional<ScenarioResult> firstOf(Role role, String scenario) {
        return scenarios.stream()
                .filter(r -> r.role() == role && r.scenario().equals(scenario) && r.usable())
                .findFirst();
    }

    /** The role of the contender named {@code contender} in this store's results, or null if it did not run. */
    public Role roleOf(String contender) {
        return scenarios.stream().filter(r -> r.contender().equals(contender)).map(ScenarioResult::role)
                .findFirst().orElse(null);
    }

    /** The library (not {@code except}) with the highest median ops/s in {@code scenario}. */
    public Optional<ScenarioResult> bestLibrary(String scenario, String except) {
        return scenarios.stream()
                .filter(r -> r.role().isLibrary() && r.scenario().equals(scenario) && r.usable()
                        && !r.contender().equals(except))
                .max((a, b) -> Double.compare(a.medianOpsPerSecond(), b.medianOpsPerSecond()));
    }

    /** The library (not {@code except}) with the lowest p99 latency in {@code scenario}. */
    public Optional<ScenarioResult> fastestLibrary(String scenario, String except) {
        return scenarios.stream()
                .filter(r -> r.role().isLibrary() && r.scenario().equals(scenario) && r.usable()
                        && !r.contender().equals(except))
                .min((a, b) -> Double.compare(a.latencyMillis(99), b.latencyMillis(99)));
    }
}
