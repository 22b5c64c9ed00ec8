package io.distlock;

import java.util.Optional;

/**
 * A campaign for the leadership named {@link #name()}, started by {@link LockStore#leadership}: at most one
 * campaigner per name holds a term at any time, across every client of the store. A term is a lease of the lock of
 * that name (renewed, fenced and freed on crash like any lease); its fencing token is the term number. When a term
 * is lost the campaigner is told ({@link LeadershipListener#revoked}) and campaigns again until closed. A store
 * that is unavailable is asked again after a pause; one that refuses the lock for good (a {@link LockException} such
 * as a fence at the largest token) ends the campaign, logged at ERROR with the store's reason.
 */
public interface Leadership extends AutoCloseable {

    /** The name campaigned for (the name of the lock behind it). */
    String name();

    /** True while this campaigner holds a valid term: false while campaigning, after a loss, or while uncertain. */
    boolean isLeader();

    /** The current term while this campaigner is leader (between elected and revoked), else empty. */
    Optional<Lease> lease();

    /**
     * Steps down if leader (revoked is told, then the term's lease is released, so another campaigner can win at
     * once) and stops campaigning. Waits for the step-down unless called from the listener itself. Idempotent.
     */
    @Override
    void close();
}
