package io.distlock.jdbc;

import io.distlock.spi.ReleaseSignals;
import java.util.ArrayDeque;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The release wake-ups shared by every store of this JVM that opens the same database table, so that a release
 * through one store wakes a waiter of another at once instead of at its next poll. Each store waits on release
 * signals of its own ({@link #join}); a store whose waiter found a lock held queues for the name ({@link #waiting}),
 * and a release wakes the releasing store's own waiters and, of the other stores, only the one that queued first and
 * still waits, as Curator wakes only the next node's watcher. So a hand-off among N stores waiting on one name costs
 * one attempt, not N - 1 (issue #33's waiters); the others keep polling, so a wake-up that finds its waiter gone costs
 * them at most a poll, never a hang. Semaphore waiters share one set of signals ({@link #permits}): a release frees a
 * slot that any of them may take. Keyed by the credential-free description of the database and the table name.
 */
final class SharedSignals {

    private static final ConcurrentHashMap<String, SharedSignals> BY_TABLE = new ConcurrentHashMap<>();

    private final ReleaseSignals permits = new ReleaseSignals();
    private final Set<ReleaseSignals> stores = ConcurrentHashMap.newKeySet();
    /** Per name, the stores whose waiters found it held, first queued first; changed only inside the map's compute. */
    private final ConcurrentHashMap<String, ArrayDeque<ReleaseSignals>> queued = new ConcurrentHashMap<>();

    /** The shared wake-ups for {@code table} of the database described by {@code redactedUrl}. */
    static SharedSignals forTable(String redactedUrl, String table) {
        return BY_TABLE.computeIfAbsent(redactedUrl + "#" + table, k -> new SharedSignals());
    }

    /** Where the semaphore waiters of every store of this table wait. */
    ReleaseSignals permits() {
        return permits;
    }

    /** A store opened: {@code store} are the signals its lock waiters wait on. */
    void join(ReleaseSignals store) {
        stores.add(store);
    }

    /** A store closed: it is woken no more. */
    void leave(ReleaseSignals store) {
        stores.remove(store);
        for (String name : queued.keySet()) {
            queued.computeIfPresent(name, (k, q) -> {
                q.remove(store);
                return q.isEmpty() ? null : q;
            });
        }
    }

    /** A waiter of {@code store} found {@code name} held: the store queues for its release (once). */
    void waiting(String name, ReleaseSignals store) {
        queued.compute(name, (k, q) -> {
            ArrayDeque<ReleaseSignals> stores = q == null ? new ArrayDeque<>() : q;
            if (!stores.contains(store)) {
                stores.addLast(store);
            }
            return stores;
        });
    }

    /**
     * {@code name} was released through {@code from} (null: in another process, heard of by a notice): wakes the
     * waiters of {@code from} and of the first other queued store that still waits for the name. A woken store that
     * loses the race queues again at the end.
     */
    void released(String name, ReleaseSignals from) {
        if (from != null) {
            from.signal(name);
        }
        ReleaseSignals[] next = {null};
        queued.computeIfPresent(name, (k, q) -> {
            while (next[0] == null && !q.isEmpty()) {
                ReleaseSignals store = q.pollFirst();
                if (store != from && store.hasWaiters(name)) {
                    next[0] = store;
                }
            }
            return q.isEmpty() ? null : q;
        });
        if (next[0] != null) {
            next[0].signal(name);
        }
    }

    /** Wakes every waiter of every name in every store of this table (releases may have gone unheard). */
    void wakeAll() {
        stores.forEach(ReleaseSignals::signalAll);
        permits.signalAll();
    }

    /** Whether a waiter of any store of this table waits for {@code name}. */
    boolean hasWaiters(String name) {
        return stores.stream().anyMatch(s -> s.hasWaiters(name));
    }
}
