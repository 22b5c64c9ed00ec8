package io.distlock.redis;

import io.distlock.LockStore;
import io.distlock.tck.RacesAndBoundsRules;
import io.distlock.tck.TckHarness;
import io.distlock.tck.fixture.StoreServers;

/**
 * The kit's §15 rules against the fixture's Redis server with clients of two pooled connections: §15.5's releases then
 * wait for a connection, and its interrupts land in that wait (DEFECTS S88), which the default pool of 16 is rarely
 * driven into.
 */
class RedisSmallPoolTckTest extends TckHarness implements RacesAndBoundsRules {

    @Override
    protected LockStore newClient() {
        return LockStore.open(StoreServers.redis() + "?poolSize=2");
    }
}
