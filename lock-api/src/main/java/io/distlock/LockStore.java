package io.distlock;

import io.distlock.core.CampaignLoop;
import io.distlock.core.StoreDiscovery;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;

/**
 * A connection to one lock store (Redis, ZooKeeper, a SQL database, or the in-memory {@code mem:} store).
 *
 * <p>Open one per process and share it: it is thread-safe and holds the connections, the renewal thread and the
 * bookkeeping for reentrancy. The store is chosen by the URI's scheme through {@link java.util.ServiceLoader},
 * as JDBC picks a driver, so changing stores is a configuration change:
 *
 * <pre>{@code
 * try (LockStore store = LockStore.open("redis://localhost:6379")) {
 *     try (Lease lease = store.lock("orders:42").acquire()) {
 *         writeWithFence(lease.fencingToken());
 *     }
 * }
 * }</pre>
 */
public interface LockStore extends AutoCloseable {

    /**
     * Opens the store named by {@code uri}, for example {@code redis://localhost:6379}, {@code zookeeper://zk1:2181},
     * {@code jdbc:postgresql://db/app} or {@code mem:}. Every scheme, with its options and defaults, is in one
     * table: {@code docs/stores.md} in the distlock repository.
     *
     * @throws NullPointerException if {@code uri} is null
     * @throws IllegalArgumentException if the URI is malformed or no store on the class path claims its scheme
     *         (the message lists the schemes found and the module that provides the missing one)
     * @throws StoreUnavailableException if the store cannot be reached
     */
    static LockStore open(String uri) {
        return open(uri, StoreOptions.defaults());
    }

    /**
     * Opens the store named by {@code uri}, as {@link #open(String)}, with {@code options}: the {@link LockOptions}
     * of locks, semaphores and leaderships asked for by name only ({@link #defaultOptions()}), and the listeners told
     * of its background work, for example {@code StoreOptions.defaults().withListener(metrics.listener())}.
     *
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException as {@link #open(String)}
     * @throws StoreUnavailableException if the store cannot be reached
     */
    static LockStore open(String uri, StoreOptions options) {
        return StoreDiscovery.open(uri, Objects.requireNonNull(options, "options must not be null"));
    }

    /**
     * The URI schemes of the stores on the class path (for example {@code mem}, {@code redis}), sorted: the ones
     * {@link #open(String)} accepts. Nothing is connected.
     */
    static SortedSet<String> availableSchemes() {
        return StoreDiscovery.availableSchemes();
    }

    /** A lock named {@code name} with {@link #defaultOptions()}; cheap, no round trip. */
    default DistributedLock lock(String name) {
        return lock(name, defaultOptions());
    }

    /**
     * A lock named {@code name}. Locks of equal names are the same lock, on every client of the store.
     *
     * @throws NullPointerException if {@code name} or {@code options} is null
     * @throws IllegalArgumentException if {@code name} is empty, longer than the store allows, or holds an unpaired
     *         surrogate (not valid Unicode)
     */
    DistributedLock lock(String name, LockOptions options);

    /** As {@link #leadership(String, LockOptions, LeadershipListener)} with {@link #defaultOptions()}. */
    default Leadership leadership(String name, LeadershipListener listener) {
        return leadership(name, defaultOptions(), listener);
    }

    /**
     * Campaigns, at once and on a distlock thread, for the leadership named {@code name}: a term is a lease of the
     * lock {@code name} taken with {@code options}, so at most one campaigner holds it at a time and a crashed
     * leader's term ends within its lease time (or session timeout). The listener hears each term's start and end;
     * after a lost term the campaign goes on until {@link Leadership#close()}.
     *
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code name} is not a valid lock name for this store
     */
    default Leadership leadership(String name, LockOptions options, LeadershipListener listener) {
        return CampaignLoop.start(lock(name, options), listener);
    }

    /**
     * A semaphore named {@code name} allowing {@code permits} holders at once, with {@link #defaultOptions()};
     * cheap, no round trip. Independent of the lock of the same name.
     *
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is empty, too long or not valid Unicode, or {@code permits} is
     *         below 1 or above the store's maximum
     * @throws UnsupportedOperationException if the store has no semaphores
     */
    default DistributedSemaphore semaphore(String name, int permits) {
        return semaphore(name, permits, defaultOptions());
    }

    /**
     * A semaphore named {@code name} allowing {@code permits} holders at once across every client of the store.
     * Semaphores of equal names are the same semaphore; a semaphore and a lock of the same name are independent.
     * Every client must state the same limit for a name (see {@link DistributedSemaphore}).
     *
     * @throws NullPointerException if {@code name} or {@code options} is null
     * @throws IllegalArgumentException if {@code name} is empty, too long or not valid Unicode, or {@code permits} is
     *         below 1 or above the store's maximum
     * @throws UnsupportedOperationException if the store has no semaphores (the message names the store; see
     *         {@link Features#semaphores()})
     */
    default DistributedSemaphore semaphore(String name, int permits, LockOptions options) {
        throw new UnsupportedOperationException("store " + this + " has no semaphores");
    }

    /**
     * The options of locks, semaphores and leaderships asked for without options: those the store was opened with
     * ({@link StoreOptions#lockOptions()}), {@link LockOptions#defaults()} unless told otherwise. A store that wraps
     * another returns the wrapped store's.
     */
    default LockOptions defaultOptions() {
        return LockOptions.defaults();
    }

    /**
     * What this store offers (semaphores, an admin view, how leases end, name and permit limits): read it here
     * rather than trying an operation and catching {@link UnsupportedOperationException}. A store that wraps another
     * returns the wrapped store's.
     */
    Features features();

    /**
     * How this store ends the lease of a holder that went away: when its lease time runs out, or with the holder's
     * session. Tools that must wait out a dead holder (the kit, the demo) read it here. {@link Features#leaseModel()}.
     */
    default LeaseModel leaseModel() {
        return features().leaseModel();
    }

    /**
     * For a {@link LeaseModel#SESSION} store, how long after a client goes silent its session, and so its leases,
     * end; empty for a time-bound store. {@link Features#sessionTimeout()}.
     */
    default Optional<Duration> sessionTimeout() {
        return features().sessionTimeout();
    }

    /**
     * Operator access: list held locks and break a stuck one. Not for application code, which must only release
     * its own leases.
     *
     * @throws UnsupportedOperationException if the store offers no admin view ({@link Features#admin()} is false)
     */
    LockAdmin admin();

    /**
     * Releases every lease this store still holds (other clients can acquire them at once), marks those leases
     * lost, and closes the connections. Acquisitions in progress end with {@link IllegalStateException}: waits end
     * at once, and the close waits (at most 5 s) for store calls still running, releasing what they were granted
     * before the connections close, so nothing is left held. Idempotent.
     */
    @Override
    void close();
}
