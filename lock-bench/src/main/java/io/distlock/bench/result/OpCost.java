package io.distlock.bench.result;

/**
 * What one operation cost in one metered run, counted rather than timed: per acquire/release pair (uncontended),
 * per hand-off or per acquisition (contended).
 *
 * @param operations operations in the run
 * @param roundTrips request bursts the client sent
 * @param pushes messages the server sent that answered no request (pub/sub deliveries, watch events)
 * @param bytesUp bytes the client sent
 * @param bytesDown bytes the server sent
 * @param requests requests the server executed (Redis commands, SQL statements, ZooKeeper requests), counted in
 *        the client's byte stream by the proxy
 * @param serverCpuMicros server CPU in microseconds (Redis {@code INFO cpu}, in-process ZooKeeper threads), NaN if
 *        unknown
 * @param clientCpuMicros client-side CPU in microseconds (library, driver and benchmark loop threads)
 * @param clientBytes client-side heap allocation in bytes
 * @param opsPerSecond operations per second in the run
 */
public record OpCost(long operations, double roundTrips, double pushes, double bytesUp, double bytesDown,
                     double requests, double serverCpuMicros, double clientCpuMicros, double clientBytes,
                     double opsPerSecond) {

    /** Figure names in report order, with {@link #value(int)}. */
    public static final String[] FIGURES = {"round trips", "pushed msgs", "server requests", "bytes up", "bytes down",
        "server CPU µs", "client CPU µs", "client alloc B"};

    /** The {@code i}-th figure of {@link #FIGURES}. */
    public double value(int i) {
        return switch (i) {
            case 0 -> roundTrips;
            case 1 -> pushes;
            case 2 -> requests;
            case 3 -> bytesUp;
            case 4 -> bytesDown;
            case 5 -> serverCpuMicros;
            case 6 -> clientCpuMicros;
            case 7 -> clientBytes;
            default -> throw new IllegalArgumentException("no figure " + i);
        };
    }
}
