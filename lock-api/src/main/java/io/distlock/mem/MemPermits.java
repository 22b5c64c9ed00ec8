package io.distlock.mem;

import io.distlock.spi.Backoff;
import io.distlock.spi.Grant;
import io.distlock.LockInfo;
import io.distlock.spi.OwnerTokens;
import io.distlock.spi.PermitBackend;
import io.distlock.spi.PermitWaits;
import io.distlock.spi.ReleaseSignals;
import io.distlock.spi.Renewal;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The semaphores of one {@code mem:NAME} space, apart from its locks: per name, the holders' permits with their
 * expiry (nanoTime) and the limit they recorded, changed only by one atomic {@code compute} per operation; a fencing
 * counter per name that never resets. Expired permits are swept as the space's expired locks are.
 */
final class MemPermits {

    private static final long SWEEP_EVERY_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** The highest limit a mem semaphore takes. */
    static final int MAX_PERMITS = 1_000_000;

    /** One permit: its fencing token, expiry and a description of its holder. */
    private record Permit(long fence, long expiresAtNanos, String owner) {
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
    private final AtomicLong lastSweep = new AtomicLong(System.nanoTime());

    Grant acquire(String name, int permits, Duration leaseTime, Wait wait) throws InterruptedException {
        return PermitWaits.acquire(signals, name, wait, Backoff::pollNanos,
                () -> attempt(name, permits, leaseTime));
    }

    /**
     * Drops expired permits of every name, and names left without holders, at most once a second (one thread does
     * it), so semaphores that are never asked about again do not stay in memory. Fencing counters stay: tokens must
     * keep increasing.
     */
    private void sweepExpired(long now) {
        long last = lastSweep.get();
        if (now - last >= SWEEP_EVERY_NANOS && lastSweep.compareAndSet(last, now)) {
            for (String name : names.keySet()) {
                names.computeIfPresent(name, (k, current) -> {
                    Holders live = current.withoutExpired(now);
                    return live.permits().isEmpty() ? null : live;
                });
            }
        }
    }

    private Grant attempt(String name, int permits, Duration leaseTime) {
        String token = OwnerTokens.newToken();
        long now = System.nanoTime();
        sweepExpired(now);
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
            next.put(token, new Permit(fence[0], now + leaseTime.toNanos(),
                    OwnerTokens.processDescription() + " " + Thread.currentThread().getName()));
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

    /** Wakes every permit waiter of the space, so a closing store's waiters see their stopped waits at once. */
    void wakeAll() {
        signals.signalAll();
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
                next.put(grant.ownerToken(),
                        new Permit(permit.fence(), now + renewal.leaseTime().toNanos(), permit.owner()));
                return new Holders(current.limit(), next);
            });
            if (!renewed[0]) {
                lost.add(grant);
            }
        }
        return lost;
    }

    /** The live permits of names starting with {@code prefix}, by name then token, at most {@code limit}. */
    List<LockInfo> list(String prefix, int limit) {
        long now = System.nanoTime();
        List<LockInfo> infos = new ArrayList<>();
        names.forEach((name, holders) -> {
            if (name.startsWith(prefix == null ? "" : prefix)) {
                holders.permits().values().stream().filter(p -> !p.expiredAt(now)).forEach(p -> infos.add(
                        new LockInfo(name, p.fence(), Duration.ofNanos(p.expiresAtNanos() - now), p.owner())));
            }
        });
        infos.sort(Comparator.comparing(LockInfo::name).thenComparingLong(LockInfo::fencingToken));
        return infos.size() > limit ? List.copyOf(infos.subList(0, limit)) : infos;
    }

    /** How many semaphore names this space keeps holders for (for tests: expired ones must not pile up). */
    int namesKept() {
        return names.size();
    }

    int held(String name) {
        long now = System.nanoTime();
        Holders current = names.get(name);
        return current == null ? 0 : current.withoutExpired(now).permits().size();
    }
}
