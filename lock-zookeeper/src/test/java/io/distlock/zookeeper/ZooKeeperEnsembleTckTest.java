package io.distlock.zookeeper;

import io.distlock.tck.StoreCapabilities;

/**
 * The kit against a 3-node ensemble, trimmed to fit the default build on a shared 2-core machine: the rules that
 * start client JVMs (§1.2, §5.3, §6.2) are skipped here because {@link ZooKeeperTckTest} runs them against a single
 * server, and §12.3 holds 1,000 names instead of 10,000 (every node and parent is a quorum write on three in-process
 * servers). {@link ZooKeeperEnsembleFullTckTest} (tag {@code slow}) runs all of it.
 */
class ZooKeeperEnsembleTckTest extends EnsembleTckBase {

    @Override
    protected StoreCapabilities capabilities() {
        return super.capabilities().withSeparateJvmClients(false);
    }

    @Override
    public int manyNamesCount() {
        return 1_000;
    }
}
