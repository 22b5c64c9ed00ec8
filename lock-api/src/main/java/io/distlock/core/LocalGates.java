package io.distlock.core;

import io.distlock.spi.Wait;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * One fair, FIFO gate per lock name inside one store: only the thread through the gate contends in the store, the
 * others queue here. So many local waiters on one lock cost the store one contender, not one each, and they get the
 * lock in arrival order. A gate is a {@link Semaphore}, not an owner-bound lock, because a lease may be released
 * from another thread; gates are dropped when no thread uses them.
 */
final class LocalGates {

    private final ConcurrentHashMap<String, Gate> gates = new ConcurrentHashMap<>();

    /** Counts the caller as a user of {@code name}'s gate; pair with {@link #leave}. */
    Gate enter(String name) {
        return gates.compute(name, (k, g) -> {
            Gate gate = g == null ? new Gate() : g;
            gate.users++;
            return gate;
        });
    }

    /** Stops counting the caller as a user of {@code name}'s gate. */
    void leave(String name) {
        gates.compute(name, (k, g) -> g == null || --g.users == 0 ? null : g);
    }

    /**
     * Passes {@code gate} within {@code wait}: blocks without limit, tries once, or waits until the deadline.
     *
     * @return whether the caller got through
     */
    static boolean pass(Semaphore gate, Wait wait) throws InterruptedException {
        if (wait.isForever()) {
            gate.acquire();
            return true;
        }
        if (wait.isNone()) {
            return gate.tryAcquire();
        }
        return gate.tryAcquire(wait.remainingNanos(), TimeUnit.NANOSECONDS);
    }

    /** Number of names with a gate in use (for tests: gates must not leak). */
    int size() {
        return gates.size();
    }

    /** A name's gate. */
    static final class Gate {
        final Semaphore permit = new Semaphore(1, true);
        int users; // guarded by ConcurrentHashMap.compute on the gate's key
    }
}
