package io.distlock.bench.scenario;

import io.distlock.bench.core.Contender;
import io.distlock.bench.core.LockClient;
import io.distlock.bench.core.RoundTripProxy;
import io.distlock.bench.result.WireCost;
import java.util.OptionalDouble;
import java.util.function.Supplier;

/**
 * Counts the store round trips of one uncontended acquire/release pair: a contender connected through a
 * {@link RoundTripProxy} does {@code pairs} pairs on one thread and the proxy's count is divided by them. This
 * explains throughput: on loopback a pair costs about one round-trip time per round trip. Where the store reports
 * its CPU time, the server CPU per pair is measured over the same pairs (it includes any other client's load).
 */
public final class RoundTripProbe {

    private RoundTripProbe() {
    }

    /** Round trips and pushed messages per pair of {@code contender}, whose clients connect through {@code proxy}. */
    public static WireCost perPair(Contender contender, RoundTripProxy proxy, String namePrefix, int pairs,
                                   Supplier<OptionalDouble> serverCpuSeconds) throws Exception {
        LockClient client = contender.client(0);
        String name = namePrefix + "probe";
        for (int i = 0; i < 20; i++) {
            client.acquire(name).release();
        }
        OptionalDouble cpuBefore = serverCpuSeconds.get();
        long before = proxy.roundTrips();
        long pushedBefore = proxy.pushes();
        for (int i = 0; i < pairs; i++) {
            client.acquire(name).release();
        }
        double roundTrips = (double) (proxy.roundTrips() - before) / pairs;
        double pushes = (double) (proxy.pushes() - pushedBefore) / pairs;
        OptionalDouble cpuAfter = serverCpuSeconds.get();
        double cpuMicros = cpuBefore.isPresent() && cpuAfter.isPresent()
                ? (cpuAfter.getAsDouble() - cpuBefore.getAsDouble()) * 1e6 / pairs : Double.NaN;
        return new WireCost(roundTrips, pushes, cpuMicros);
    }
}
