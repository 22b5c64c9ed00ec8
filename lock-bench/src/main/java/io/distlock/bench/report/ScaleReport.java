package io.distlock.bench.report;

import io.distlock.bench.core.Role;
import io.distlock.bench.result.CostResult;
import io.distlock.bench.result.HeldLeasesResult;
import io.distlock.bench.result.NamesOnceResult;
import io.distlock.bench.result.OpCost;
import io.distlock.bench.result.StoreResult;
import io.distlock.bench.result.WaitersPoint;
import io.distlock.bench.scenario.CostProbe;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The part of the report that leads: counted costs per operation (with their spread over runs), the issue #33
 * targets, the side-by-side scenarios at a real round-trip time, and the growth curves (waiters on one name, names
 * used once, held leases), each with a chart. Counted figures do not drift with the machine's load, so they come
 * first; timed figures follow.
 */
public final class ScaleReport {

    /** File names of the growth charts, next to the report. */
    public static final String WAITERS_SVG = "bench-waiters.svg";
    public static final String NAMES_SVG = "bench-names.svg";
    public static final String HELD_SVG = "bench-held.svg";

    private ScaleReport() {
    }

    /** Whether any store has a figure of this part. */
    public static boolean any(BenchReport report) {
        return report.stores().stream().anyMatch(s -> !s.costs().isEmpty() || !s.atRoundTripTime().isEmpty()
                || s.costsAtRoundTripTime().values().stream().anyMatch(c -> !c.isEmpty())
                || !s.waiters().isEmpty() || !s.namesOnce().isEmpty() || !s.heldCurve().isEmpty());
    }

    /** Appends the counted, at-RTT and growth sections. */
    public static void render(StringBuilder md, BenchReport report) {
        renderCosts(md, report);
        renderCostsAtRtt(md, report);
        renderTargets(md, report);
        renderAtRtt(md, report);
        renderWaiters(md, report);
        renderNames(md, report);
        renderHeld(md, report);
    }

    private static void renderCosts(StringBuilder md, BenchReport report) {
        if (report.stores().stream().allMatch(s -> s.costs().isEmpty())) {
            return;
        }
        md.append("## Counted cost per operation\n\n")
                .append("Counted, not timed: each contender's fresh clients connect through a loopback proxy that "
                        + "counts round trips (request bursts), messages the server pushes unasked (pub/sub "
                        + "deliveries, watch events), bytes each way, and the requests the server executes, parsed "
                        + "from the client's byte stream (Redis commands, SQL Execute/Query messages, MySQL "
                        + "COM_QUERY/COM_STMT_EXECUTE, ZooKeeper requests other than pings): exact for this client "
                        + "even on a shared server. Server CPU: Redis `INFO cpu` (a shared server: includes other "
                        + "clients' load, so read the minimum) and the in-process ZooKeeper server's threads; SQL "
                        + "servers report none per client. Client CPU and allocation: HotSpot per-thread counters of "
                        + "the loop threads and every other client-side thread (driver I/O, renewal, subscribers), the "
                        + "proxy's threads left out. `pair`: one thread, acquire + release on one name; `hand-off`: "
                        + "two clients take turns on one name, the other already waiting (per hand-off); `contended`: "
                        + "the contended-8x2 shape counted, 8 threads over 2 clients on one name, each acquiring and "
                        + "releasing at once (per acquisition); `semaphore pair`: one permit of a semaphore with "
                        + "limit 2. Each cell: median over the runs, then "
                        + "min-max.\n\n");
        for (StoreResult store : report.stores()) {
            if (store.costs().isEmpty()) {
                continue;
            }
            md.append("### ").append(store.store()).append(" (counted)\n\n| contender | loop | runs |");
            for (String f : OpCost.FIGURES) {
                md.append(' ').append(f).append(" |");
            }
            md.append("\n|---|---|---:|");
            md.append("---:|".repeat(OpCost.FIGURES.length)).append('\n');
            for (CostResult c : store.costs()) {
                md.append("| ").append(c.contender()).append(c.role().isRaw() ? " (raw limit)" : "").append(" | ")
                        .append(c.scenario()).append(" | ").append(c.runs().size()).append(" |");
                if (!c.usable()) {
                    md.append(" failed: ").append(c.failure()).append(" |")
                            .append(" |".repeat(OpCost.FIGURES.length - 1))
                            .append('\n');
                    continue;
                }
                for (int i = 0; i < OpCost.FIGURES.length; i++) {
                    int figure = i;
                    String pattern = figure <= 2 ? "%.2f" : figure == 5 || figure == 6 ? "%,.1f" : "%,.0f";
                    md.append(' ').append(spread(c, o -> o.value(figure), pattern)).append(" |");
                }
                md.append('\n');
            }
            md.append('\n');
        }
    }

    /**
     * The counted costs again through a proxy that delays each way: the counts (which should not move with the
     * delay) beside the time per operation, which at a real round-trip time is decided by round trips, not by the
     * host's CPU noise; {@code round trips timed} is that time divided by the round-trip time.
     */
    private static void renderCostsAtRtt(StringBuilder md, BenchReport report) {
        List<String> labels = report.stores().stream().flatMap(s -> s.costsAtRoundTripTime().entrySet().stream())
                .filter(e -> !e.getValue().isEmpty()).map(Map.Entry::getKey).distinct().toList();
        for (String label : labels) {
            double rttMillis = Double.parseDouble(label.replace(" ms", ""));
            double settleMillis = CostProbe.handoffSettle(java.time.Duration.ofNanos(Math.round(rttMillis * 1e6 / 2)))
                    .toNanos() / 1e6;
            md.append("## Counted cost per operation at a ").append(label).append(" round trip\n\n")
                    .append("The counted loops above once more, every contender's fresh clients connected through the "
                            + "proxy holding each chunk of data ").append(trim(rttMillis / 2))
                    .append(" ms each way, so each round trip costs what it costs across a network and waiting on it, "
                            + "not the shared host's CPU, decides the time per operation. Counted figures as above "
                            + "(median, then min-max over the runs); `ms per op` is the median time per operation, "
                            + "`round trips timed` that time divided by the ").append(label).append(" round trip (the "
                            + "round trips an operation costs in wall-clock time), `x distlock` distlock's time per "
                            + "operation divided by this contender's in the same loop (below 1: distlock is faster). A "
                            + "hand-off's time leaves out the ").append(trim(settleMillis))
                    .append(" ms the holder waits before releasing (so the other client is already waiting): it is "
                            + "the release, the wake-up and the waiter's acquire.\n\n");
            for (StoreResult store : report.stores()) {
                List<CostResult> costs = store.costsAtRoundTripTime().getOrDefault(label, List.of());
                if (costs.isEmpty()) {
                    continue;
                }
                md.append("### ").append(store.store()).append(" (counted at ").append(label).append(")\n\n")
                        .append("| contender | loop | runs | round trips | pushed msgs | server requests | bytes up | "
                                + "bytes down | ops/s | ms per op | round trips timed | x distlock |\n"
                                + "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
                for (CostResult c : costs) {
                    md.append("| ").append(c.contender()).append(c.role().isRaw() ? " (raw limit)" : "")
                            .append(" | ").append(c.scenario()).append(" | ").append(c.runs().size()).append(" |");
                    if (!c.usable()) {
                        md.append(" failed: ").append(c.failure()).append(" |").append(" |".repeat(8)).append('\n');
                        continue;
                    }
                    double msPerOp = msPerOp(c, settleMillis);
                    double ours = costs.stream().filter(o -> o.role() == Role.DISTLOCK && o.usable()
                            && o.scenario().equals(c.scenario())).mapToDouble(o -> msPerOp(o, settleMillis))
                            .findFirst().orElse(Double.NaN);
                    md.append(' ').append(spread(c, OpCost::roundTrips, "%.2f")).append(" | ")
                            .append(spread(c, OpCost::pushes, "%.2f")).append(" | ")
                            .append(spread(c, OpCost::requests, "%.2f")).append(" | ")
                            .append(spread(c, OpCost::bytesUp, "%,.0f")).append(" | ")
                            .append(spread(c, OpCost::bytesDown, "%,.0f")).append(" | ")
                            .append(spread(c, OpCost::opsPerSecond, "%,.0f")).append(" | ")
                            .append(String.format(Locale.ROOT, "%.2f | %.2f | %s |%n", msPerOp, msPerOp / rttMillis,
                                    c.role() == Role.DISTLOCK || Double.isNaN(ours) ? ""
                                            : String.format(Locale.ROOT, "%.2fx", ours / msPerOp)));
                }
                md.append('\n');
            }
        }
    }

    /** Median time per operation in ms; a hand-off's without the holder's settle before it releases. */
    private static double msPerOp(CostResult c, double settleMillis) {
        return 1000 / c.median(OpCost::opsPerSecond) - (c.scenario().equals(CostProbe.HANDOFF) ? settleMillis : 0);
    }

    private static String trim(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    /** Median and min-max of a figure, or n/a. */
    static String spread(CostResult c, ToDoubleFunction<OpCost> figure, String pattern) {
        double median = c.median(figure);
        if (Double.isNaN(median)) {
            return "n/a";
        }
        double min = c.min(figure);
        double max = c.max(figure);
        String m = String.format(Locale.ROOT, pattern, median);
        String lo = String.format(Locale.ROOT, pattern, min);
        String hi = String.format(Locale.ROOT, pattern, max);
        return lo.equals(hi) ? m : m + " (" + lo + "-" + hi + ")";
    }

    private static void renderTargets(StringBuilder md, BenchReport report) {
        List<TargetCheck> checks = new ArrayList<>();
        java.util.OptionalDouble floor = ScaleTargets.hostFloorP99(report.stores());
        report.stores().forEach(s -> checks.addAll(ScaleTargets.check(s, floor)));
        if (checks.isEmpty()) {
            return;
        }
        md.append("## Issue #33 targets\n\n`why` (a miss only): what this run's counts show about it, computed from "
                + "the figures above: round trips and requests per operation, client CPU and allocation per request, "
                + "and the round trip the run paid at ").append(ScaleTargets.TARGET_RTT).append(" (the raw limit's "
                + "uncontended-1 pair time there divided by its counted round trips per pair). A row marked \"a "
                + "fenced pair against an unfenced one\" compares distlock's pair, which issues a fencing token, with "
                + "a lock that issues none; the target is judged in the row against that lock with a token.\n\n"
                + "| store | target | measured | verdict | why |\n|---|---|---|---|---|\n");
        for (TargetCheck check : checks) {
            md.append("| ").append(check.store()).append(" | ").append(check.target()).append(" | ")
                    .append(check.measured()).append(" | ").append(switch (check.verdict()) {
                        case MET -> "met";
                        case MISSED -> "**missed**, " + check.shortfall();
                        case NOT_MEASURED -> "not measured";
                    }).append(" | ").append(check.why()).append(" |\n");
        }
        md.append('\n');
    }

    private static void renderAtRtt(StringBuilder md, BenchReport report) {
        if (report.stores().stream().allMatch(s -> s.atRoundTripTime().isEmpty())) {
            return;
        }
        md.append("## Throughput at a real round-trip time\n\n")
                .append("The side-by-side scenarios again, every contender's clients connected through a proxy that "
                        + "holds each chunk of data for a fixed delay each way, so a round trip costs what it costs "
                        + "inside one zone (0.25 ms each way: a 0.5 ms round trip) and waiting on the network, not CPU "
                        + "noise, decides throughput. Ratios are within one run at one delay.\n\n");
        for (StoreResult store : report.stores()) {
            for (Map.Entry<String, StoreResult> e : store.atRoundTripTime().entrySet()) {
                md.append("### ").append(store.store()).append(" at ").append(e.getKey()).append(" round trip\n\n");
                MarkdownReport.scenarioTable(md, e.getValue());
                e.getValue().notes().forEach(n -> md.append("- ").append(n).append('\n'));
            }
        }
    }

    private static void renderWaiters(StringBuilder md, BenchReport report) {
        if (report.stores().stream().allMatch(s -> s.waiters().isEmpty())) {
            return;
        }
        md.append("## Growth: waiters on one name\n\n")
                .append("N clients, each with its own connections and one thread, all on one name; each holds it "
                        + "for the waiters' hold time (in the settings), releases and asks again. The clients run in one JVM but share "
                        + "nothing in-process (distlock's SQL clients each open their own spelling of the URL), so "
                        + "a release reaches the others only as it would reach N separate services: by the store's "
                        + "messages or their polls. Per acquisition (counted through the proxy): round "
                        + "trips, server requests, pushed messages, and `extra` = round trips beyond what one "
                        + "client alone needs per pair: mostly wake-ups that lose (retries that find the lock taken "
                        + "again). `per client` is the fewest and the most acquisitions of one client: a client "
                        + "that takes the lock back right after its own release hides what the others' waits "
                        + "cost. Acquisitions per second is timed, so it moves with the load. Chart: [`")
                .append(WAITERS_SVG).append("`](").append(WAITERS_SVG).append(").\n\n");
        for (StoreResult store : report.stores()) {
            if (store.waiters().isEmpty()) {
                continue;
            }
            md.append("### ").append(store.store()).append(" (waiters)\n\n| contender | clients | round trips | "
                    + "server requests | pushed | bytes up+down | extra round trips | client CPU µs | "
                    + "acquisitions/s | per client |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            for (WaitersPoint w : store.waiters()) {
                if (w.cost() == null) {
                    md.append("| ").append(w.contender()).append(" | ").append(w.clients()).append(" | failed: ")
                            .append(w.failure()).append(" | | | | | | | |\n");
                    continue;
                }
                OpCost c = w.cost();
                double alone = store.waiters().stream().filter(x -> x.contender().equals(w.contender())
                        && x.clients() == 1 && x.cost() != null).mapToDouble(x -> x.cost().roundTrips()).findFirst()
                        .orElse(Double.NaN);
                md.append(String.format(Locale.ROOT, "| %s | %d | %.2f | %.2f | %.2f | %,.0f | %s | %.0f | %,.0f | "
                                + "%,d-%,d |%n",
                        w.contender(), w.clients(), c.roundTrips(), c.requests(), c.pushes(),
                        c.bytesUp() + c.bytesDown(), Double.isNaN(alone) ? "" : String.format(Locale.ROOT, "%.2f",
                                Math.max(0, c.roundTrips() - alone)), c.clientCpuMicros(), c.opsPerSecond(),
                        w.fewest(), w.most()));
            }
            store.notes().stream().filter(n -> n.startsWith("waiters curve")).forEach(n -> md.append("\n- ")
                    .append(n).append('\n'));
            md.append('\n');
        }
    }

    private static void renderNames(StringBuilder md, BenchReport report) {
        if (report.stores().stream().allMatch(s -> s.namesOnce().isEmpty())) {
            return;
        }
        md.append("## Growth: names used once\n\n")
                .append("One client locks N distinct names once each (8 threads), as per-order or per-entity locks "
                        + "do; then the store is searched for entries whose key, row or node path holds those names "
                        + "(Redis `SCAN` over all keys; SQL rows of distlock's lock and fence tables, ShedLock's and "
                        + "the raw baseline's; ZooKeeper nodes): right after the last release, and after the 30 s "
                        + "lease plus a grace period, with every client still open (as a service's would be: the SQL "
                        + "stores reclaim rows from the clients' side). Chart: [`").append(NAMES_SVG).append("`](")
                        .append(NAMES_SVG)
                .append("). With several sizes, `µs per name` (wall-clock time per acquire + release, 8 threads) and "
                        + "`per name` (entries left per name) show whether the cost per name grows with the "
                        + "names.\n\n| store | contender | names | locked in s | µs per name | left after release | "
                        + "left after lease + grace | per name |\n|---|---|---:|---:|---:|---:|---:|---:|\n");
        for (StoreResult store : report.stores()) {
            for (NamesOnceResult n : store.namesOnce()) {
                if (n.failure() != null) {
                    md.append("| ").append(store.store()).append(" | ").append(n.contender()).append(" | ")
                            .append(n.names()).append(" | failed: ").append(n.failure()).append(" | | | | |\n");
                    continue;
                }
                md.append(String.format(Locale.ROOT, "| %s | %s | %,d | %.1f | %,.0f | %s | %s (after %ds) | %s |%n",
                        store.store(), n.contender(), n.names(), n.seconds(), n.seconds() * 1e6 / n.names(),
                        count(n.afterRelease()),
                        count(n.afterGrace()), n.waited().toSeconds(), n.afterGrace() < 0 ? "" : String.format(
                                Locale.ROOT, "%.2f", n.afterGrace() / (double) n.names())));
            }
        }
        md.append('\n');
    }

    private static String count(long n) {
        return n < 0 ? "n/a" : String.format(Locale.ROOT, "%,d", n);
    }

    private static void renderHeld(StringBuilder md, BenchReport report) {
        if (report.stores().stream().allMatch(s -> s.heldCurve().isEmpty())) {
            return;
        }
        md.append("## Growth: held leases\n\n")
                .append("One client holds N leases at once with background renewal (lease time as in the settings; "
                        + "renewal every third of it): round trips it sends per renewal interval, counted by the "
                        + "proxy, and client heap per held lease (used heap after full GCs before and after taking "
                        + "them). Curator's locks need no renewal (the session's heartbeats keep them). Chart: [`")
                .append(HELD_SVG).append("`](").append(HELD_SVG).append(").\n\n| store | contender | leases | "
                        + "acquired in s | round trips per interval | per 100 leases | heap B per lease | problems |\n"
                        + "|---|---|---:|---:|---:|---:|---:|---|\n");
        for (StoreResult store : report.stores()) {
            for (HeldLeasesResult h : store.heldCurve()) {
                md.append(String.format(Locale.ROOT, "| %s | %s | %,d | %.1f | %.1f | %.3f | %,d | %s |%n",
                        store.store(), h.contender(), h.leases(), h.acquireSeconds(), h.roundTripsPerInterval(),
                        h.roundTripsPer100LeasesPerInterval(), h.heapBytesPerLease(),
                        h.failure() == null ? "" : h.failure()));
            }
        }
        md.append('\n');
    }

    /** The waiters chart: per store, round trips and server requests per acquisition (lower) and acquisitions/s. */
    public static String waitersChart(BenchReport report) {
        GrowthChart chart = new GrowthChart("Waiters on one name: cost per acquisition as clients grow");
        for (StoreResult store : report.stores()) {
            List<Integer> sizes = store.waiters().stream().map(WaitersPoint::clients).distinct().sorted().toList();
            if (sizes.isEmpty()) {
                continue;
            }
            List<String> labels = sizes.stream().map(n -> n + (n == 1 ? " client" : "")).toList();
            chart.add(new GrowthChart.Panel(store.store() + ": round trips per acquisition", true, labels,
                    waiterSeries(store, sizes, OpCost::roundTrips)));
            chart.add(new GrowthChart.Panel(store.store() + ": server requests per acquisition", true, labels,
                    waiterSeries(store, sizes, OpCost::requests)));
            chart.add(new GrowthChart.Panel(store.store() + ": pushed messages per acquisition", true, labels,
                    waiterSeries(store, sizes, OpCost::pushes)));
            chart.add(new GrowthChart.Panel(store.store() + ": acquisitions per second (timed)", false, labels,
                    waiterSeries(store, sizes, OpCost::opsPerSecond)));
        }
        return chart.render();
    }

    private static Map<String, double[]> waiterSeries(StoreResult store, List<Integer> sizes,
                                                      ToDoubleFunction<OpCost> figure) {
        Map<String, double[]> series = GrowthChart.series();
        for (WaitersPoint w : distlockFirst(store.waiters(), WaitersPoint::role)) {
            double[] values = series.computeIfAbsent(w.contender(), k -> nan(sizes.size()));
            if (w.cost() != null) {
                values[sizes.indexOf(w.clients())] = figure.applyAsDouble(w.cost());
            }
        }
        return series;
    }

    /** The held-leases chart: per store, renewal round trips per interval and heap per lease (both lower). */
    public static String heldChart(BenchReport report) {
        GrowthChart chart = new GrowthChart("Held leases: renewal round trips per interval and client heap per lease");
        for (StoreResult store : report.stores()) {
            List<Integer> sizes = store.heldCurve().stream().map(HeldLeasesResult::leases).distinct().sorted()
                    .toList();
            if (sizes.isEmpty()) {
                continue;
            }
            List<String> labels = sizes.stream().map(n -> String.format(Locale.ROOT, "%,d", n)).toList();
            Map<String, double[]> rt = GrowthChart.series();
            Map<String, double[]> heap = GrowthChart.series();
            List<HeldLeasesResult> rows = new ArrayList<>(store.heldCurve());
            rows.sort((a, b) -> Boolean.compare(!a.contender().equals("distlock"), !b.contender().equals("distlock")));
            for (HeldLeasesResult h : rows) {
                int i = sizes.indexOf(h.leases());
                double[] r = rt.computeIfAbsent(h.contender(), k -> nan(sizes.size()));
                double[] m = heap.computeIfAbsent(h.contender(), k -> nan(sizes.size()));
                if (h.failure() == null) {
                    r[i] = h.roundTripsPerInterval();
                    m[i] = h.heapBytesPerLease();
                }
            }
            chart.add(new GrowthChart.Panel(store.store() + ": renewal round trips per interval", true, labels, rt));
            chart.add(new GrowthChart.Panel(store.store() + ": client heap B per held lease", true, labels, heap));
        }
        return chart.render();
    }

    /** The names-used-once chart: entries left per name, right after release and after lease + grace (lower). */
    public static String namesChart(BenchReport report) {
        GrowthChart chart = new GrowthChart("Names used once: store entries left per name");
        for (StoreResult store : report.stores()) {
            if (store.namesOnce().isEmpty()) {
                continue;
            }
            Map<String, double[]> series = GrowthChart.series();
            // rows come smallest size first: each contender's line shows its largest size
            for (NamesOnceResult n : distlockFirst(store.namesOnce(), NamesOnceResult::role)) {
                series.put(n.contender(), n.failure() != null ? nan(2) : new double[] {
                    n.afterRelease() < 0 ? Double.NaN : n.afterRelease() / (double) n.names(),
                    n.afterGrace() < 0 ? Double.NaN : n.afterGrace() / (double) n.names()});
            }
            chart.add(new GrowthChart.Panel(store.store() + ": entries left per name", true,
                    List.of("right after release", "after lease + grace"), series));
        }
        return chart.render();
    }

    private static <T> List<T> distlockFirst(List<T> rows, java.util.function.Function<T, Role> role) {
        List<T> sorted = new ArrayList<>(rows);
        sorted.sort((a, b) -> Boolean.compare(role.apply(a) != Role.DISTLOCK, role.apply(b) != Role.DISTLOCK));
        return sorted;
    }

    private static double[] nan(int n) {
        double[] v = new double[n];
        java.util.Arrays.fill(v, Double.NaN);
        return v;
    }
}
