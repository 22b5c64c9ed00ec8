package io.distlock.bench.core;

import java.util.List;
import java.util.OptionalDouble;

/**
 * One store in the benchmark (Redis, ZooKeeper, MariaDB, PostgreSQL): where it listens and the contenders that use
 * it. Contenders can be built against any address, so the harness can put a round-trip-counting proxy in between.
 */
public interface StoreBench extends AutoCloseable {

    /** Short name used on the command line and in the report, e.g. {@code redis}. */
    String name();

    /** The server and its version, for the report, e.g. {@code Redis 7.0.15 at 127.0.0.1:6379}. */
    String describeServer() throws Exception;

    /** Where the store listens. */
    HostPort server();

    /**
     * Every contender of this store, connecting to {@code via} (the server itself or a proxy in front of it). Each
     * client of a contender shares nothing in-process with its other clients (no release signals, no caches), as if
     * each ran in its own process: a scenario's N clients stand for N services.
     */
    List<Contender> contenders(HostPort via) throws Exception;

    /**
     * CPU seconds the store's server process has used so far, where the store reports it (Redis {@code INFO cpu}),
     * so the harness can give server CPU per operation. On a shared server this includes other clients' load.
     */
    default OptionalDouble serverCpuSeconds() {
        return OptionalDouble.empty();
    }

    /** The store's wire protocol, so the counting proxy can count the requests the server executes. */
    default WireProtocol protocol() {
        return WireProtocol.NONE;
    }

    /**
     * How many entries the store holds whose key, row or node path contains {@code marker} (Redis keys, rows of the
     * lock tables, ZooKeeper nodes), to see what locks on names used once leave behind; empty if not countable.
     */
    default java.util.OptionalLong leftover(String marker) throws Exception {
        return java.util.OptionalLong.empty();
    }

    /**
     * The most clients the waiters curve may open at once on this store, each with its own connections: a shared
     * SQL server has a limited number of connection slots that other users of the server need too.
     */
    default int maxWaiters() {
        return Integer.MAX_VALUE;
    }

    /** Stops whatever the harness started for this store (an in-process server); never a shared server. */
    @Override
    void close() throws Exception;
}
