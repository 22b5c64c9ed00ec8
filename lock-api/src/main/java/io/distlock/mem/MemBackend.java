package io.distlock.mem;

import io.distlock.LockAdmin;
import io.distlock.LockInfo;
import io.distlock.spi.Grant;
import io.distlock.spi.HandOvers;
import io.distlock.spi.OthersWaiting;
import io.distlock.spi.OwnerTokens;
import io.distlock.spi.PermitBackend;
import io.distlock.spi.PollingLockBackend;
import io.distlock.spi.ReleaseSignals;
import io.distlock.spi.Renewal;
import io.distlock.spi.Terms;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The in-memory store's operations, on a {@link MemSpace}: each is one atomic {@code compute} on the name's entry,
 * with expiry by {@link System#nanoTime()} standing in for the store clock. Real leases, fencing and waiting, but
 * within one JVM only.
 */
final class MemBackend extends PollingLockBackend implements HandOvers, LockAdmin, PermitBackend {

    /** The longest name the mem store takes. */
    static final int MAX_NAME_LENGTH = 1024;
    /** The mem store's terms: leases end by time. */
    private static final Terms TERMS = Terms.timed(MAX_NAME_LENGTH);

    private final MemSpace space;
    private final AtomicBoolean closed = new AtomicBoolean();

    MemBackend(MemSpace space) {
        this.space = space;
    }

    @Override
    public Terms terms() {
        return TERMS;
    }

    @Override
    public ReleaseSignals signals() {
        return space.signals;
    }

    @Override
    protected Attempt attempt(String name, Duration leaseTime) {
        ensureOpen();
        String token = OwnerTokens.newToken();
        long now = System.nanoTime();
        space.sweepExpired(now);
        MemSpace.Entry after = space.entries.compute(name, (k, current) -> {
            if (current != null && !current.expiredAt(now)) {
                return current;
            }
            return new MemSpace.Entry(token, space.nextFence(name), now + leaseTime.toNanos(),
                    OwnerTokens.holderDescription());
        });
        if (after.ownerToken().equals(token)) {
            return Attempt.granted(new Grant(name, token, after.fence(), null, now));
        }
        return Attempt.held(Math.max(0, after.expiresAtNanos() - now));
    }

    @Override
    public boolean release(Grant grant) {
        long now = System.nanoTime();
        boolean[] removed = {false};
        space.entries.computeIfPresent(grant.name(), (k, current) -> {
            if (current.ownerToken().equals(grant.ownerToken()) && !current.expiredAt(now)) {
                removed[0] = true;
                return null;
            }
            return current;
        });
        space.signals.signal(grant.name());
        return removed[0];
    }

    /**
     * One atomic {@code compute}: the entry moves to a new token, lease and fence only if {@code from} still has it.
     * The grant says whether, just after that, a waiter of another store of the space waits for the name (holds a
     * signal ticket).
     */
    @Override
    public Grant handOver(Grant from, Duration leaseTime, Thread receiver) {
        ensureOpen();
        String token = OwnerTokens.newToken();
        long now = System.nanoTime();
        MemSpace.Entry after = space.entries.computeIfPresent(from.name(), (k, current) -> {
            if (current.ownerToken().equals(from.ownerToken()) && !current.expiredAt(now)) {
                return new MemSpace.Entry(token, space.nextFence(from.name()), now + leaseTime.toNanos(),
                        OwnerTokens.holderDescription(receiver));
            }
            return current;
        });
        if (after == null || !after.ownerToken().equals(token)) {
            return null;
        }
        // while this client holds the lock, its own threads queue at its gate: a waiter here is another client's.
        // Read after the swap, not inside it: tickets live apart from the entries, so no read is atomic with both. A
        // waiter takes its ticket before the attempt the entry refuses (firstAttemptBeforeTicket is false), so one
        // refused before the swap and still waiting is seen; one missed came after this read (the next hand-over sees
        // it) or gave up. The answer only decides when a streak ends (at most one hold late); holder and fence are the
        // compute's alone.
        OthersWaiting others = space.signals.hasWaiters(from.name()) ? OthersWaiting.YES : OthersWaiting.NO;
        return new Grant(from.name(), token, after.fence(), null, now, others);
    }

    @Override
    public Set<Grant> renew(List<Renewal> renewals) {
        ensureOpen();
        Set<Grant> lost = new HashSet<>();
        for (Renewal renewal : renewals) {
            Grant grant = renewal.grant();
            long now = System.nanoTime();
            boolean[] renewed = {false};
            space.entries.computeIfPresent(grant.name(), (k, current) -> {
                if (current.ownerToken().equals(grant.ownerToken()) && !current.expiredAt(now)) {
                    renewed[0] = true;
                    return new MemSpace.Entry(current.ownerToken(), current.fence(),
                            now + renewal.leaseTime().toNanos(), current.owner());
                }
                return current;
            });
            if (!renewed[0]) {
                lost.add(grant);
            }
        }
        return lost;
    }

    @Override
    public int maxPermits() {
        return MemPermits.MAX_PERMITS;
    }

    @Override
    public Grant acquirePermit(String name, int permits, Duration leaseTime, Wait wait)
            throws InterruptedException {
        ensureOpen();
        return space.permits.acquire(name, permits, leaseTime, wait);
    }

    @Override
    public boolean releasePermit(Grant grant) {
        return space.permits.release(grant);
    }

    @Override
    public Set<Grant> renewPermits(List<Renewal> renewals) {
        ensureOpen();
        return space.permits.renew(renewals);
    }

    @Override
    public int heldPermits(String name) {
        ensureOpen();
        return space.permits.held(name);
    }

    @Override
    public PermitBackend permits() {
        return this;
    }

    /** Wakes the lock waiters and the permit waiters, which wait on signals of their own. */
    @Override
    public void closing() {
        super.closing();
        space.permits.wakeAll();
    }

    @Override
    public LockAdmin admin() {
        return this;
    }

    @Override
    public List<LockInfo> list(String prefix, int limit) {
        long now = System.nanoTime();
        return space.entries.entrySet().stream()
                .filter(e -> e.getKey().startsWith(prefix == null ? "" : prefix))
                .filter(e -> !e.getValue().expiredAt(now))
                .sorted(Map.Entry.comparingByKey(Comparator.naturalOrder()))
                .limit(limit)
                .map(e -> new LockInfo(e.getKey(), e.getValue().fence(),
                        Duration.ofNanos(e.getValue().expiresAtNanos() - now), e.getValue().owner()))
                .toList();
    }

    @Override
    public boolean listsPermits() {
        return true;
    }

    @Override
    public List<LockInfo> listPermits(String prefix, int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative, got " + limit);
        }
        return space.permits.list(prefix, limit);
    }

    @Override
    public boolean forceRelease(String name) {
        long now = System.nanoTime();
        MemSpace.Entry removed = space.entries.remove(name);
        space.signals.signal(name);
        return removed != null && !removed.expiredAt(now);
    }

    private void ensureOpen() {
        if (closed.get()) {
            throw new IllegalStateException("mem store is closed");
        }
    }

    /** Removes the entry only if it is the unexpired one with {@code fencingToken}: one atomic map operation. */
    @Override
    public boolean forceRelease(String name, long fencingToken) {
        long now = System.nanoTime();
        boolean[] removed = {false};
        space.entries.computeIfPresent(name, (n, e) -> {
            removed[0] = e.fence() == fencingToken && !e.expiredAt(now);
            return removed[0] ? null : e;
        });
        if (removed[0]) {
            space.signals.signal(name);
        }
        return removed[0];
    }

    @Override
    public void close() {
        closed.set(true);
    }
}
