package io.distlock.zookeeper;

import io.distlock.LockStore;
import io.distlock.tck.FenceStateTampering;
import io.distlock.tck.LockStoreTck;
import io.distlock.tck.SpoiledNameState;
import io.distlock.tck.StoreCapabilities;
import io.distlock.tck.WaitResources;
import java.time.Duration;

/**
 * What the kit runs against ZooKeeper share, on one server or on an ensemble: session-bound leases with a 4 s
 * session timeout so the session rules finish quickly, operations that give up after the URI's connection timeout,
 * and the client's watchers as what its waits keep. A subclass owns the servers and says where they are in
 * {@link #storeUri()}.
 */
abstract class ZooKeeperTckBase extends LockStoreTck {

    static final Duration SESSION = Duration.ofSeconds(4);
    static final Duration CONNECTION = Duration.ofSeconds(4);

    @Override
    protected LockStore newClient() {
        return LockStore.open(storeUri());
    }

    @Override
    protected StoreCapabilities capabilities() {
        return StoreCapabilities.sessionBound(SESSION);
    }

    /** A client's operations give up after the URI's connection timeout (see {@link WaitBudget}). */
    @Override
    protected Duration operationTimeout() {
        return CONNECTION;
    }

    /** The watchers the client keeps for its waits: a timed-out wait must take its watch with it. */
    @Override
    protected WaitResources waitResources() {
        return TestServers::clientWatchers;
    }

    /** The lock's and the semaphore's parent nodes, deleted as an operator would, through a client of the kit's. */
    @Override
    protected FenceStateTampering fenceTampering() {
        return new ZooKeeperFenceTampering(tck().client());
    }

    /**
     * The holder's nodes deleted and made again at the same path by a client of the kit's (another session), as an
     * operator's hand would.
     */
    @Override
    protected SpoiledNameState spoiledNameState() {
        return new ZooKeeperSpoiledNames(tck().client());
    }

    /** The URI of the servers the subclass owns. */
    @Override
    protected abstract String storeUri();
}
