package io.distlock.mem;

import io.distlock.spi.Grant;
import io.distlock.spi.OwnerTokens;
import io.distlock.spi.PermitBackend;
import io.distlock.spi.PermitWaits;
import io.distlock.spi.ReleaseSignals;
import io.distlock.spi.Renewal;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The semaphores of one {@code mem:NAME} space, apart from its locks: per name, the holders' permits with their
 * expiry (nanoTime) and the limit they recorded, changed only by one atomic {@code compute} per operation; a fencing
 * counter per name that never resets.
 */
final class MemPermits {

    /** The highest limit a mem semaphore takes. */
    static final int MAX_PERMITS = 1_000_000;

    /** One permit: its fencing token and expiry. */
    private record Permit(long fence, long expiresAtNanos) {
        boolean expiredAt(long now) {
            return now - expiresAtNanos >= 0;
        }
    }

    /** The live permits of one name and the limit their holders stated. */
    private record Holders(int limit, Map<String, Permit> permits) {
        Holders withoutExpired(long now) {
            Map<String, Permit> live = new HashMap<>(permits);
            live.values().removeIf(p -> p.expiredAt(now));
            return live.size() == permits.size() ? this : new Holders(limit, live);
        }
    }

    private final ConcurrentHashMap<String, Holders> names = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, AtomicLong> fences = new ConcurrentHashMap<>();
    private final ReleaseSignals signals = new ReleaseSignals();

    Grant acquire(String name, int permits, Duration leaseTime, Wait wait) throws InterruptedException {
        return PermitWaits.acquire(signals, name, wait, () -> attempt(name, permits, leaseTime));
    }

    private Grant attempt(String name, int permits, Duration leaseTime) {
        String token = OwnerTokens.newToken();
        long now = System.nanoTime();
        long[] fence = {0};
        int[] recorded = {0};
        names.compute(name, (k, current) -> {
            Holders live = current == null ? null : current.withoutExpired(now);
            if (live == null || live.permits().isEmpty()) {
                live = new Holders(permits, Map.of());
            }
            if (live.limit() != permits) {
                recorded[0] = live.limit();
                return live;
            }
            if (live.permits().size() >= permits) {
                return live;
            }
            fence[0] = fences.computeIfAbsent(name, n -> new AtomicLong()).incrementAndGet();
            Map<String, Permit> next = new HashMap<>(live.permits());
            next.put(token, new Permit(fence[0], now + leaseTime.toNanos()));
            return new Holders(permits, next);
        });
        if (recorded[0] != 0) {
            throw new IllegalStateException(PermitBackend.limitMismatch(name, recorded[0], permits));
        }
        return fence[0] == 0 ? null : new Grant(name, token, fence[0], null, now);
    }

    boolean release(Grant grant) {
        long now = System.nanoTime();
        boolean[] removed = {false};
        names.computeIfPresent(grant.name(), (k, current) -> {
            Permit permit = current.permits().get(grant.ownerToken());
            if (permit == null) {
                return current;
            }
            removed[0] = !permit.expiredAt(now);
            Map<String, Permit> next = new HashMap<>(current.permits());
            next.remove(grant.ownerToken());
            return next.isEmpty() ? null : new Holders(current.limit(), next);
        });
        signals.signal(grant.name());
        return removed[0];
    }

    Set<Grant> renew(List<Renewal> renewals) {
        Set<Grant> lost = new HashSet<>();
        for (Renewal renewal : renewals) {
            Grant grant = renewal.grant();
            long now = System.nanoTime();
            boolean[] renewed = {false};
            names.computeIfPresent(grant.name(), (k, current) -> {
                Permit permit = current.permits().get(grant.ownerToken());
                if (permit == null || permit.expiredAt(now)) {
                    return current;
                }
                renewed[0] = true;
                Map<String, Permit> next = new HashMap<>(current.permits());
                next.put(grant.ownerToken(), new Permit(permit.fence(), now + renewal.leaseTime().toNanos()));
                return new Holders(current.limit(), next);
            });
            if (!renewed[0]) {
                lost.add(grant);
            }
        }
        return lost;
    }

    int held(String name) {
        long now = System.nanoTime();
        Holders current = names.get(name);
        return current == null ? 0 : current.withoutExpired(now).permits().size();
    }
}
