package io.distlock.bench.result;

/**
 * What one uncontended acquire/release pair costs on the wire, counted through the round-trip proxy.
 *
 * @param roundTrips request bursts the client sent (each waits for a reply)
 * @param pushes messages the store sent without a request (pub/sub deliveries, watch events), which wake client
 *        threads and cost server and client CPU even when nobody waits for the lock
 * @param serverCpuMicros server CPU per pair in microseconds where the store reports its CPU, else NaN
 */
public record WireCost(double roundTrips, double pushes, double serverCpuMicros) {
}
