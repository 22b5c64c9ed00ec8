package io.distlock.core;

import io.distlock.Arguments;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * The {@link NameState} of every name a store's threads use now, in one map: a state exists while a thread waits
 * for, contends for or holds its name, and is dropped when nobody does. A lock's state is keyed by its name, a
 * semaphore's by a {@link PermitKey}, so a lock and a semaphore of the same name never meet, as in the store.
 */
final class Names {

    private final ConcurrentHashMap<Object, NameState> states = new ConcurrentHashMap<>();

    /** A semaphore's key: never equal to a lock's, which is the plain name. */
    record PermitKey(String name) {
    }

    /**
     * Counts the caller as a user of the state of {@code name} (a semaphore's if {@code permit}); pair with
     * {@link #leave}. A name nobody uses (an uncontended lock) gets its new state by a merge, which, unlike a compute,
     * puts it without a placeholder node.
     */
    NameState enter(String name, boolean permit) {
        Object key = permit ? new PermitKey(name) : name;
        if (states.get(key) == null) {
            return states.merge(key, new NameState(this, key), Names::join);
        }
        return states.compute(key, joinOrMake);
    }

    /** For {@link #enter}'s compute: one user more, or a new state; made once, as it refers to this object. */
    private final BiFunction<Object, NameState, NameState> joinOrMake = (key, s) -> {
        if (s == null) {
            return new NameState(this, key);
        }
        s.users++;
        return s;
    };

    /** A user more for the state in use; the one made for the merge is dropped. */
    private static NameState join(NameState inUse, NameState unused) {
        inUse.users++;
        return inUse;
    }

    /** Stops counting the caller as a user of {@code state}. */
    void leave(NameState state) {
        states.compute(state.key, (k, s) -> {
            if (s != state) { // a leave without its enter: never take another state's user away
                throw new IllegalStateException("no user of the state of " + Arguments.quoted(state.name())
                        + " is left to leave");
            }
            return --s.users == 0 ? null : s;
        });
    }

    /** The state of lock {@code name} if one is in use, else null. */
    NameState lock(String name) {
        return states.get(name);
    }

    /** The state of semaphore {@code name} if one is in use, else null. */
    NameState semaphore(String name) {
        return states.get(new PermitKey(name));
    }

    /** Every registered hold, of locks and semaphores. */
    List<Hold> holds() {
        List<Hold> all = new ArrayList<>();
        states.values().forEach(s -> s.addHoldsTo(all));
        return all;
    }

    /** Number of lock names with a state in use (for tests: states must not leak). */
    int locksInUse() {
        return (int) states.values().stream().filter(s -> !s.isPermit()).count();
    }

    /** Number of semaphore names with a state in use (for tests: states must not leak). */
    int semaphoresInUse() {
        return (int) states.values().stream().filter(s -> s.isPermit()).count();
    }

    /** Number of threads queued at every name (for tests: waiters that gave up must not stay queued). */
    int queued() {
        return states.values().stream().mapToInt(NameState::queued).sum();
    }

    /** Number of losses kept for grants not registered yet (for tests: they must not pile up). */
    int lossesKept() {
        return states.values().stream().mapToInt(NameState::lossesKept).sum();
    }
}
