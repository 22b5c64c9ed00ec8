package io.distlock.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The waiter queues ({@link RedisKeys#waiting}) a client stands in, each with the time its place there expires, so
 * that closing the client can take its places out: a closed client left first in a queue would get the next
 * release's wake-up, and the clients still waiting would sleep until their re-check. Places that have expired are
 * forgotten (the server dropped them too), so the names held stay bounded by those refused within one lease plus the
 * waiter margin.
 */
final class QueuedPlaces {

    /** Prune at the latest after this many places (or after as many as are held, if more): amortised O(1). */
    private static final int PRUNE_AFTER = 1024;

    /** Name to the {@link System#nanoTime()} after which its place has surely expired. */
    private final ConcurrentHashMap<String, Long> expiresAt = new ConcurrentHashMap<>();
    private final AtomicInteger sincePrune = new AtomicInteger();

    /** This client was queued for {@code name} for at most {@code forNanos} from about now. */
    void queued(String name, long forNanos) {
        long until = System.nanoTime() + forNanos;
        expiresAt.merge(name, until, (old, now) -> old - now >= 0 ? old : now);
        if (sincePrune.incrementAndGet() >= Math.max(PRUNE_AFTER, expiresAt.size())) {
            sincePrune.set(0);
            prune();
        }
    }

    /** The names whose place may still be there. */
    List<String> live() {
        prune();
        return new ArrayList<>(expiresAt.keySet());
    }

    private void prune() {
        long now = System.nanoTime();
        expiresAt.entrySet().removeIf(e -> e.getValue() - now < 0);
    }
}
