package io.distlock.tck.stub;

import io.distlock.spi.Backoff;
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
 * The semaphores of a {@link StubSpace}, for the clients that turn them on ({@link StubBackend#permits(boolean)}):
 * per name the holders' permits with their expiry and the limit they stated, changed by one atomic {@code compute}
 * per operation, a fencing counter per name, and the same probe points as locks ({@code "permitAcquire"},
 * {@code "permitGranted"}, {@code "permitRelease"}, {@code "permitRenew"}) so an explorer can interleave them.
 */
final class StubPermits implements PermitBackend {

    /** One permit: its fencing token and expiry. */
    private record Permit(long fence, long expiresAtNanos) {
        boolean expiredAt(long now) {
            return now - expiresAtNanos >= 0;
        }
    }

    /** The permits of one name (owner token to permit) and the limit their holders stated. */
    private record Holders(int limit, Map<String, Permit> permits) {
    }

    /** The space's permit state, shared by its clients. */
    static final class Shared {
        private final ConcurrentHashMap<String, Holders> names = new ConcurrentHashMap<>();
        private final ConcurrentHashMap<String, AtomicLong> fences = new ConcurrentHashMap<>();
        private final ReleaseSignals signals = new ReleaseSignals();

        /** The owner tokens of {@code name}'s live permits. */
        Set<String> holders(String name) {
            Holders h = names.get(name);
            long now = System.nanoTime();
            Set<String> live = new HashSet<>();
            if (h != null) {
                h.permits().forEach((token, p) -> {
                    if (!p.expiredAt(now)) {
                        live.add(token);
                    }
                });
            }
            return live;
        }
    }

    private final StubBackend client;
    private final Shared shared;

    StubPermits(StubBackend client, Shared shared) {
        this.client = client;
        this.shared = shared;
    }

    @Override
    public int maxPermits() {
        return 1000;
    }

    @Override
    public Grant acquirePermit(String name, int permits, Duration leaseTime, Wait wait) throws InterruptedException {
        Grant grant = PermitWaits.acquire(shared.signals, name, wait, Backoff::pollNanos,
                () -> attempt(name, permits, leaseTime));
        if (grant != null) {
            client.probeAt("permitGranted", name, grant);
        }
        return grant;
    }

    private Grant attempt(String name, int permits, Duration leaseTime) {
        client.probeAt("permitAcquire", name, null);
        String token = OwnerTokens.newToken();
        long now = System.nanoTime();
        long[] fence = {0};
        int[] recorded = {0};
        shared.names.compute(name, (k, current) -> {
            Map<String, Permit> live = new HashMap<>();
            if (current != null) {
                current.permits().forEach((t, p) -> {
                    if (!p.expiredAt(now)) {
                        live.put(t, p);
                    }
                });
            }
            int limit = live.isEmpty() ? permits : current.limit();
            if (limit != permits) {
                recorded[0] = limit;
                return current;
            }
            if (live.size() >= permits) {
                return new Holders(limit, live);
            }
            fence[0] = shared.fences.computeIfAbsent(name, n -> new AtomicLong()).incrementAndGet();
            live.put(token, new Permit(fence[0], now + leaseTime.toNanos()));
            return new Holders(limit, live);
        });
        if (recorded[0] != 0) {
            throw new IllegalStateException(PermitBackend.limitMismatch(name, recorded[0], permits));
        }
        return fence[0] == 0 ? null : new Grant(name, token, fence[0], null, now);
    }

    @Override
    public boolean releasePermit(Grant grant) {
        client.probeAt("permitRelease", grant.name(), grant);
        long now = System.nanoTime();
        boolean[] removed = {false};
        shared.names.computeIfPresent(grant.name(), (k, current) -> {
            Permit permit = current.permits().get(grant.ownerToken());
            if (permit == null) {
                return current;
            }
            removed[0] = !permit.expiredAt(now);
            Map<String, Permit> next = new HashMap<>(current.permits());
            next.remove(grant.ownerToken());
            return next.isEmpty() ? null : new Holders(current.limit(), next);
        });
        shared.signals.signal(grant.name());
        return removed[0];
    }

    @Override
    public Set<Grant> renewPermits(List<Renewal> renewals) {
        client.probeAt("permitRenew", renewals.isEmpty() ? "" : renewals.get(0).grant().name(), null);
        Set<Grant> lost = new HashSet<>();
        for (Renewal renewal : renewals) {
            Grant grant = renewal.grant();
            long now = System.nanoTime();
            boolean[] renewed = {false};
            shared.names.computeIfPresent(grant.name(), (k, current) -> {
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

    @Override
    public int heldPermits(String name) {
        return shared.holders(name).size();
    }
}
