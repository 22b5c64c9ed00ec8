package io.distlock.mem;

import io.distlock.spi.ReleaseSignals;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The shared state of one {@code mem:NAME} space: who holds each lock until when, and each name's fencing counter,
 * which never resets. Every {@code mem:NAME} store of one JVM with the same NAME shares one space.
 */
final class MemSpace {

    /** A held lock: the holder's owner token, its fencing token, its expiry (nanoTime) and a description. */
    record Entry(String ownerToken, long fence, long expiresAtNanos, String owner) {
        boolean expiredAt(long now) {
            return now - expiresAtNanos >= 0;
        }
    }

    final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
    final ConcurrentHashMap<String, AtomicLong> fences = new ConcurrentHashMap<>();
    final ReleaseSignals signals = new ReleaseSignals();
    /** The space's semaphores, apart from its locks. */
    final MemPermits permits = new MemPermits();

    private static final long SWEEP_EVERY_NANOS = TimeUnit.SECONDS.toNanos(1);
    private final AtomicLong lastSweep = new AtomicLong(System.nanoTime());

    /**
     * Drops expired entries, at most once a second (one thread does it), so names that are never asked about again
     * do not stay in memory. Fencing counters stay: tokens must keep increasing.
     */
    void sweepExpired(long now) {
        long last = lastSweep.get();
        if (now - last >= SWEEP_EVERY_NANOS && lastSweep.compareAndSet(last, now)) {
            entries.values().removeIf(e -> e.expiredAt(now));
        }
    }

    long nextFence(String name) {
        return fences.computeIfAbsent(name, k -> new AtomicLong()).incrementAndGet();
    }
}
