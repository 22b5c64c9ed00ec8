package io.distlock.chaos;

import java.time.Duration;

/**
 * A target made of several redis-servers of the run's own (Redlock's masters, a Redis Cluster's nodes): its report
 * name, a URI listing every node, the first node's port and the Redis lease are the same accessors on each, so a
 * subclass says only what its faults do. Closing it kills every node.
 */
abstract class RedisNodesTarget implements StoreTarget {

    private final String store;
    private final String scheme;
    protected final RedisNodes nodes;

    /** {@code scheme} is the URI's, e.g. {@code redlock}; the client gives up on a silent node after 1 s. */
    RedisNodesTarget(String store, String scheme, RedisNodes nodes) {
        this.store = store;
        this.scheme = scheme;
        this.nodes = nodes;
    }

    @Override
    public String store() {
        return store;
    }

    @Override
    public String uri(int ignoredPort) {
        return scheme + "://" + nodes.hosts() + "?timeout=1s";
    }

    @Override
    public int port() {
        return nodes.get(0).port();
    }

    @Override
    public Duration holdBound() {
        return RedisTarget.LEASE;
    }

    @Override
    public void close() {
        nodes.close();
    }
}
