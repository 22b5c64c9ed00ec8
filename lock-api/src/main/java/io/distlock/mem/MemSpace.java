package io.distlock.mem;

import io.distlock.spi.ReleaseSignals;
import java.util.concurrent.ConcurrentHashMap;
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

    long nextFence(String name) {
        return fences.computeIfAbsent(name, k -> new AtomicLong()).incrementAndGet();
    }
}
