package io.distlock.bench;

import io.distlock.bench.core.HostPort;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Settings of one benchmark run, as parsed from the command line.
 *
 * @param stores stores to run, in order (redis, zookeeper, mariadb, postgresql)
 * @param warmup warm-up before the first measured run of each contender in each scenario
 * @param duration measured duration of every run
 * @param runs measured runs per contender and scenario; the median is reported
 * @param threads threads of the multi-threaded scenarios
 * @param clients independent clients in the contended scenario
 * @param settle how long a hand-off holder waits before releasing, so the other client is parked in its wait
 * @param heldLeases leases held at once in scenario 4 (0 skips it)
 * @param heldLeaseTime lease time in scenario 4 (renewal every third of it)
 * @param pairsForRoundTrips acquire/release pairs counted through the proxy per contender (0 skips it)
 * @param servers where each shared store listens
 * @param distlockUris distlock URI template per store, with {host} and {port}
 * @param outputDirectory where bench-report.md and bench-chart.svg are written
 * @param profileMissed whether to take a JFR profile of distlock where it misses a throughput target
 * @param command the command line that produced the run, for the report
 * @param scenarioIds the scenarios to run, by id (at no delay and at a round-trip time); empty runs every one
 */
public record BenchConfig(List<String> stores, Duration warmup, Duration duration, int runs, int threads, int clients,
                          Duration settle, int heldLeases, Duration heldLeaseTime, int pairsForRoundTrips,
                          Map<String, HostPort> servers, Map<String, String> distlockUris, Path outputDirectory,
                          boolean profileMissed, String command, List<String> scenarioIds) {

    public BenchConfig {
        scenarioIds = List.copyOf(scenarioIds);
    }

    /** Every scenario. */
    public BenchConfig(List<String> stores, Duration warmup, Duration duration, int runs, int threads, int clients,
                       Duration settle, int heldLeases, Duration heldLeaseTime, int pairsForRoundTrips,
                       Map<String, HostPort> servers, Map<String, String> distlockUris, Path outputDirectory,
                       boolean profileMissed, String command) {
        this(stores, warmup, duration, runs, threads, clients, settle, heldLeases, heldLeaseTime, pairsForRoundTrips,
                servers, distlockUris, outputDirectory, profileMissed, command, List.of());
    }

    /** Whether the run includes the scenario {@code id}. */
    public boolean runs(String id) {
        return scenarioIds.isEmpty() || scenarioIds.contains(id);
    }

    /** Every store the harness knows, in report order. */
    public static final List<String> ALL_STORES = List.of("redis", "zookeeper", "mariadb", "postgresql");

    /** Default distlock URI templates. */
    public static final Map<String, String> DEFAULT_DISTLOCK_URIS = Map.of(
            "redis", "redis://{host}:{port}",
            "zookeeper", "zookeeper://{host}:{port}",
            "mariadb", "jdbc:mariadb://{host}:{port}/test?user=root",
            "postgresql", "jdbc:postgresql://{host}:{port}/test?user=postgres",
            "mem", "mem:bench");

    /** Default addresses of the shared servers (ZooKeeper is started in-process on a free port). */
    public static final Map<String, HostPort> DEFAULT_SERVERS = Map.of(
            "redis", new HostPort("127.0.0.1", 6379),
            "mariadb", new HostPort("127.0.0.1", 3306),
            "postgresql", new HostPort("127.0.0.1", 5432));
}
