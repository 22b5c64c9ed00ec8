package io.distlock.core;

import io.distlock.Lease;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * The leases each thread took through {@link java.util.concurrent.locks.Lock} views, one stack per lock name, so
 * that every view of one name shares them and {@code unlock()} releases the innermost. Kept per thread, so a thread
 * that dies takes its stacks with it. A store keeps one; a decorator of a store (metrics, adapters) keeps its own.
 */
public final class ViewLeases {

    private final ThreadLocal<Map<String, Deque<Lease>>> byThread = new ThreadLocal<>();

    /** Remembers a lease taken through a Lock view of {@code name} by the calling thread. */
    void push(String name, Lease lease) {
        Map<String, Deque<Lease>> mine = byThread.get();
        if (mine == null) {
            mine = new HashMap<>();
            byThread.set(mine);
        }
        mine.computeIfAbsent(name, k -> new ArrayDeque<>()).push(lease);
    }

    /** The calling thread's innermost lease taken through a Lock view of {@code name}, removed; null if none. */
    Lease pop(String name) {
        Map<String, Deque<Lease>> mine = byThread.get();
        Deque<Lease> leases = mine == null ? null : mine.get(name);
        if (leases == null || leases.isEmpty()) {
            return null;
        }
        Lease lease = leases.pop();
        if (leases.isEmpty()) {
            mine.remove(name);
            if (mine.isEmpty()) {
                byThread.remove();
            }
        }
        return lease;
    }
}
