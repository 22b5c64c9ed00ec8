package io.distlock;

import java.time.Duration;
import java.util.Optional;

/**
 * A named counting semaphore in a {@link LockStore}: at no moment do more than {@link #permits()} valid leases of one
 * name exist, across every client and process of the store. Each permit is a {@link Lease} with the same guarantees
 * as a lock's: a fencing token that strictly increases across successive permits of the name, background renewal,
 * {@code extend}, lost-permit signals, {@link LockLostException} at release when lost, release from any thread, and
 * freed when its holder crashes (lease time or session timeout).
 *
 * <p>Not reentrant: as {@link java.util.concurrent.Semaphore}, every acquire takes one more permit, also from a thread
 * that holds one already. Semaphores and locks of the same name are independent: a semaphore lives in its own key,
 * row or node space, so {@code store.lock("x")} and {@code store.semaphore("x", 3)} never block each other.
 *
 * <p>Clients must agree on the limit of a name: an acquire that states another limit than the one the current
 * holders recorded fails with {@link IllegalStateException} naming both (never more holders than the lower limit).
 */
public interface DistributedSemaphore {

    /** The semaphore's name, as given to {@link LockStore#semaphore(String, int)}. */
    String name();

    /** The limit: how many permits may be held at once. */
    int permits();

    /** The options permits of this semaphore are taken with. */
    LockOptions options();

    /**
     * Waits as long as it takes for one permit.
     *
     * @throws InterruptedException if interrupted while waiting; nothing is left behind in the store
     * @throws IllegalStateException if the current holders recorded another limit
     * @throws StoreUnavailableException if the store cannot be reached
     */
    Lease acquire() throws InterruptedException;

    /**
     * One attempt that never waits: a permit if one was free, else empty.
     *
     * @throws IllegalStateException if the current holders recorded another limit
     * @throws StoreUnavailableException if the store cannot be reached (never reported as "not acquired")
     */
    Optional<Lease> tryAcquire();

    /**
     * Waits at most {@code maxWait} for one permit.
     *
     * @return the permit, or empty if none was free within {@code maxWait}
     * @throws IllegalArgumentException if {@code maxWait} is negative
     * @throws InterruptedException if interrupted while waiting; nothing is left behind in the store
     * @throws IllegalStateException if the current holders recorded another limit
     * @throws StoreUnavailableException if the store cannot be reached
     */
    Optional<Lease> tryAcquire(Duration maxWait) throws InterruptedException;

    /**
     * A snapshot read from the store: the limit less the permits held now (never negative). Already stale when it
     * returns; for display and metrics, not for deciding whether to acquire.
     *
     * @throws StoreUnavailableException if the store cannot be reached
     */
    int availablePermits();
}
