package io.distlock.spi;

import io.distlock.Arguments;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * The store operations behind semaphores, implemented by a {@link LockBackend} that supports them (a backend without
 * it makes {@link io.distlock.LockStore#semaphore} throw {@link UnsupportedOperationException}). The core does the
 * rest, as for locks: renewal, lost-permit signals, local queuing and argument checks.
 *
 * <p>Permits live apart from locks: a semaphore and a lock of the same name never see each other. Each operation is
 * one atomic step in the store, by the store's clock, and compares the grant's owner token. A permit grant's
 * fencing token strictly increases across successive permits of the name, whatever the store forgets.
 */
public interface PermitBackend {

    /** The highest limit this store takes for one semaphore. */
    int maxPermits();

    /**
     * Takes one permit of {@code name}, whose limit is {@code permits}, for {@code leaseTime}, waiting as long as
     * {@code wait} allows (a single attempt, until a deadline, or without limit).
     *
     * @return the grant, or null if no permit was free in time
     * @throws IllegalStateException if the current holders recorded another limit (the message names both)
     * @throws InterruptedException if interrupted while waiting; nothing is left behind in the store
     * @throws io.distlock.StoreUnavailableException if the store cannot be reached
     */
    Grant acquirePermit(String name, int permits, Duration leaseTime, Wait wait) throws InterruptedException;

    /**
     * Returns the permit if {@code grant} still holds it (compare-and-delete on the owner token).
     *
     * @return false if the grant no longer held it (expired, or removed)
     */
    boolean releasePermit(Grant grant);

    /**
     * Renews the given permits, ideally in a few round trips whatever their number; on session-bound stores, checks
     * that they are still held.
     *
     * @return the grants no longer held
     * @throws io.distlock.StoreUnavailableException if the store cannot be reached; the core retries
     */
    Set<Grant> renewPermits(List<Renewal> renewals);

    /** How many permits of {@code name} are held now (expired ones not counted). */
    int heldPermits(String name);

    /** The message of the exception for a limit that disagrees with the holders' one. */
    static String limitMismatch(String name, int recorded, int stated) {
        return "semaphore " + Arguments.quoted(name) + " is held with a limit of " + recorded
                + " permits by its current holders; "
                + "this acquire states " + stated + ": every client must use the same limit";
    }
}
