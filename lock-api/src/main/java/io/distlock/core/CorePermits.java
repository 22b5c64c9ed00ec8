package io.distlock.core;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.spi.Grant;
import io.distlock.spi.PermitBackend;
import io.distlock.spi.Wait;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/**
 * The semaphore side of a {@link BackendLockStore}: acquires permits through a {@link PermitBackend} and keeps their
 * holds, which the store renews, signals and releases as it does lock holds. Many local threads on one semaphore cost
 * the store at most {@code permits} contenders: the others queue in a fair local gate of that many places, one gate
 * per name and limit (a disagreeing limit goes to the store, which refuses it while holders of the other exist).
 */
final class CorePermits {

    private final BackendLockStore store;
    private final PermitBackend backend;
    private final boolean sessionBound;
    private final ConcurrentHashMap<String, Gate> gates = new ConcurrentHashMap<>();
    /** Registered permit holds; a permit leaves when its gate opens (released or lost). */
    private final Set<Hold> holds = ConcurrentHashMap.newKeySet();
    /** Losses reported for permits granted but not registered yet, per name while an acquire of it runs. */
    private final InFlightLosses inFlight = new InFlightLosses();

    CorePermits(BackendLockStore store, PermitBackend backend, boolean sessionBound) {
        this.store = store;
        this.backend = backend;
        this.sessionBound = sessionBound;
    }

    PermitBackend backend() {
        return backend;
    }

    Set<Hold> holds() {
        return holds;
    }

    /** Takes one permit within {@code wait}. Null if none was free in time. */
    Lease acquire(String name, int permits, LockOptions options, Wait wait) throws InterruptedException {
        store.ensureOpen();
        String key = permits + ":" + name;
        Gate gate = enter(key, permits);
        boolean permitted = false;
        boolean handedOver = false;
        try {
            permitted = LocalGates.pass(gate.places, wait);
            if (!permitted) {
                return null;
            }
            if (!store.enterAcquisition()) {
                throw store.closedWhileAcquiring(name);
            }
            try {
                long calledAt = System.nanoTime();
                long epoch = store.sessionEpoch();
                inFlight.begin(name);
                Grant grant = null;
                Hold hold;
                String lostEarly;
                try {
                    grant = backend.acquirePermit(name, permits, options.leaseTime(), store.inStore(wait));
                    if (grant == null) {
                        if (store.isClosed()) {
                            throw store.closedWhileAcquiring(name); // a wait the close ended: not "none free"
                        }
                        return null;
                    }
                    hold = new Hold(grant, Thread.currentThread(), options, sessionBound, new GateExit(gate, key),
                            true);
                    hold.acquiredAtNanos = System.nanoTime(); // releaseAfter counts its minimum hold from here
                    hold.leaseSet(grant.issuedAtNanos() >= 0 ? grant.issuedAtNanos() : calledAt, options.leaseTime());
                    holds.add(hold);
                    handedOver = true;
                } finally {
                    lostEarly = inFlight.end(name, grant == null ? null : grant.ownerToken());
                }
                // registered, then look: a loss (or a lost session) reported before registration is found here
                return store.registered(hold, lostEarly, epoch);
            } finally {
                store.exitAcquisition(); // after the registration, which a close waits for (BackendLockStore.close)
            }
        } finally {
            if (!handedOver) {
                if (permitted) {
                    gate.places.release();
                }
                leave(key);
            }
        }
    }

    /** The backend reported {@code grant} lost: true if it was a registered permit (now declared lost). */
    boolean lost(Grant grant, String reason) {
        Hold hold = find(grant);
        if (hold != null) {
            store.lose(hold, reason);
            return true;
        }
        inFlight.record(grant.name(), grant.ownerToken(), reason);
        Hold registered = find(grant);
        if (registered != null) {
            store.lose(registered, reason);
            return true;
        }
        return false;
    }

    private Hold find(Grant grant) {
        for (Hold hold : holds) {
            if (hold.grant.name().equals(grant.name()) && hold.grant.ownerToken().equals(grant.ownerToken())) {
                return hold;
            }
        }
        return null;
    }

    /** Number of local gates in use (for tests: gates must not leak). */
    int gatesInUse() {
        return gates.size();
    }

    private Gate enter(String key, int permits) {
        return gates.compute(key, (k, g) -> {
            Gate gate = g == null ? new Gate(permits) : g;
            gate.users++;
            return gate;
        });
    }

    private void leave(String key) {
        gates.compute(key, (k, g) -> g == null || --g.users == 0 ? null : g);
    }

    /** A fair gate of {@code permits} places for one name and limit. */
    private static final class Gate {
        final Semaphore places;
        int users; // guarded by ConcurrentHashMap.compute on the gate's key

        Gate(int permits) {
            this.places = new Semaphore(permits, true);
        }
    }

    /** What a permit hold does when its gate opens: leave the registry, free its local place. */
    private final class GateExit implements Hold.Exit {
        private final Gate gate;
        private final String key;

        GateExit(Gate gate, String key) {
            this.gate = gate;
            this.key = key;
        }

        @Override
        public void opened(Hold hold) {
            holds.remove(hold);
            gate.places.release();
            leave(key);
        }
    }
}
