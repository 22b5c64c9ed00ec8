package io.distlock.zookeeper;

import io.distlock.LockStore;
import io.distlock.tck.FenceStateTampering;
import io.distlock.tck.LockStoreTck;
import io.distlock.tck.PrefixedStores;
import io.distlock.tck.SpoiledNameState;
import io.distlock.tck.WaitResources;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

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
        return BackendStores.open(storeUri());
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

    /**
     * Stores under chroots of this run's own, below the kit's chroot; the store appends {@code /distlock} (locks) and
     * {@code /distlock-semaphores} to its chroot, so a chroot one of those below another's is the pair to check.
     */
    @Override
    protected PrefixedStores prefixedStores() {
        String uri = storeUri();
        int query = uri.indexOf('?');
        int slash = uri.lastIndexOf('/', query);
        String chroot = uri.substring(slash + 1, query);
        String base = chroot + "/t21-" + UUID.randomUUID().toString().substring(0, 8) + "/";
        return new PrefixedStores() {
            @Override
            public String base() {
                return base;
            }

            @Override
            public List<String> appendedSuffixes() {
                return List.of(ZooKeeperBackend.ROOT, ZooKeeperPermits.ROOT);
            }

            @Override
            public LockStore open(String namespace) {
                return BackendStores.open(uri.substring(0, slash + 1) + namespace + uri.substring(query));
            }
        };
    }

    /** The URI of the servers the subclass owns. */
    @Override
    protected abstract String storeUri();
}
