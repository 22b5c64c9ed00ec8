package io.distlock.tck.stub;

import io.distlock.LeaseModel;
import io.distlock.LockAdmin;
import io.distlock.LockInfo;
import io.distlock.LockStore;
import io.distlock.spi.CorePoints;
import io.distlock.spi.Grant;
import io.distlock.spi.HandOvers;
import io.distlock.spi.LeaseEvents;
import io.distlock.spi.LockBackend;
import io.distlock.spi.OwnerTokens;
import io.distlock.spi.PollingLockBackend;
import io.distlock.spi.ReleaseSignals;
import io.distlock.spi.Renewal;
import io.distlock.spi.Terms;
import io.distlock.spi.Wait;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A controllable backend for the interleavings a real store cannot be forced into: its calls can be paused at named
 * {@link Point}s, its renewals made to fail, its lease model switched, and the connection events the core listens
 * to raised by hand. Store semantics (atomic acquire, compare-and-act release and renew, expiry, fencing) are real,
 * kept in a {@link StubSpace} shared by every client of the space. A client made by {@link #handingOver} also hands
 * locks over.
 */
public sealed class StubBackend implements LockBackend, LockAdmin, CorePoints {

    /** Where a call can be paused. */
    public enum Point {
        /** In {@code acquire}, after the store granted the lock, before the grant is handed to the core. */
        AFTER_GRANT,
        /** In {@code renew}, before the store applies the renewal (a request still on its way). */
        RENEW_BEFORE_STORE,
        /** In {@code renew}, after the store applied it, before the answer reaches the core. */
        RENEW_AFTER_STORE
    }

    private final StubSpace space;
    private final Store store = new Store();
    private final Map<Point, Pause> pauses = new ConcurrentHashMap<>();
    private final AtomicInteger renewCalls = new AtomicInteger();
    private final AtomicInteger waitsInProgress = new AtomicInteger();
    private volatile LeaseModel model = LeaseModel.TIME;
    private volatile LeaseEvents events = LeaseEvents.NONE;
    private volatile Supplier<? extends RuntimeException> renewFailure;
    private volatile Probe probe = Probe.NONE;
    private volatile boolean closed;
    private volatile Duration maxLeaseTime;
    private volatile StubPermits permits;

    /**
     * Where an explorer watches this client's store calls: called on the calling thread at {@code "acquire"} (before
     * each atomic attempt), {@code "granted"} (after the store granted or handed over, before the grant reaches the
     * core), {@code "handOver"}, {@code "release"}, {@code "renew"} (before the store applies them) and
     * {@code "renewed"} (after). A probe may
     * block there (a scheduler's yield point) or throw (a store call failing).
     */
    @FunctionalInterface
    public interface Probe {
        /** A probe that does nothing. */
        Probe NONE = (client, point, name, grant) -> { };

        /**
         * @param grant the grant the call carries ({@code "granted"}, {@code "release"}), or null
         */
        void at(StubBackend client, String point, String name, Grant grant);
    }

    /** Sets the probe of this client's store calls ({@link Probe#NONE} for none). */
    public void probe(Probe p) {
        this.probe = p;
    }

    /**
     * A client of {@code space} that passes a released lock straight to its next local waiter in one store step
     * ({@link HandOvers#handOver}), as Redis, SQL and mem: do; a client made with the constructor does not.
     */
    public static StubBackend handingOver(StubSpace space) {
        return new HandingOver(space);
    }

    /** A stub client with hand-overs. */
    private static final class HandingOver extends StubBackend implements HandOvers {
        HandingOver(StubSpace space) {
            super(space);
        }

        @Override
        public Grant handOver(Grant from, Duration leaseTime, Thread receiver) {
            return handOverInSpace(from, leaseTime, receiver);
        }

        /** A release for other clients: the probe at "releaseForOthers", then a plain {@link #release}. */
        @Override
        public boolean releaseForOthers(Grant grant) {
            probeAt("releaseForOthers", grant.name(), grant);
            return release(grant);
        }
    }

    /**
     * If {@code from} still holds its lock, gives it a new owner token, {@code leaseTime} and the next fence in one
     * step; a fence the counter refuses ({@link StubSpace#withClockFloor()} at {@link Long#MAX_VALUE}) changes
     * nothing and throws.
     */
    Grant handOverInSpace(Grant from, Duration leaseTime, Thread receiver) {
        probe.at(this, "handOver", from.name(), from);
        checkLeaseTime(leaseTime);
        space.operation("hand-over");
        String token = OwnerTokens.newToken();
        long now = System.nanoTime();
        Grant[] handed = {null};
        space.entries.computeIfPresent(from.name(), (k, current) -> {
            if (!current.ownerToken().equals(from.ownerToken()) || current.expiredAt(now)) {
                return current;
            }
            handed[0] = new Grant(k, token, space.nextFence(k, leaseTime), null, now);
            return new StubSpace.Entry(token, handed[0].fencingToken(), StubSpace.Entry.expiryAt(now, leaseTime));
        });
        if (handed[0] != null) {
            probe.at(this, "granted", from.name(), handed[0]);
        }
        return handed[0];
    }

    /**
     * Makes this client refuse, with an {@link IllegalArgumentException} and changing nothing, an acquire, hand-over
     * or renewal asking for a lease time over {@code limit}, as Redis's restart guard refuses one over its
     * {@code maxLeaseTime}; null (the default) for no limit.
     */
    public void maxLeaseTime(Duration limit) {
        this.maxLeaseTime = limit;
    }

    private void checkLeaseTime(Duration leaseTime) {
        Duration limit = maxLeaseTime;
        if (limit != null && leaseTime.compareTo(limit) > 0) {
            throw new IllegalArgumentException("lease time " + leaseTime + " is longer than maxLeaseTime " + limit
                    + " of the stub store");
        }
    }

    /**
     * Gives this client the space's semaphores ({@link #permits()}), off by default; set before the client's store is
     * built (the core looks once).
     */
    public void permits(boolean on) {
        this.permits = on ? new StubPermits(this, space.permits) : null;
    }

    @Override
    public io.distlock.spi.PermitBackend permits() {
        return permits;
    }

    /** The probe at {@code point}, for the space's semaphores. */
    void probeAt(String point, String name, Grant grant) {
        probe.at(this, point, name, grant);
    }

    /** Whether the core closed this client (its probe may then fail the calls that still come, as a closed pool). */
    public boolean isClosed() {
        return closed;
    }

    /** A client of {@code space}. */
    public StubBackend(StubSpace space) {
        this.space = space;
    }

    /**
     * The stub backend behind {@code store}, if {@link StubSpace#openStore()} (or {@link BackendStores}) opened it
     * over a bare stub: how the kit reaches the stub of a client for rules that need a fault the real stores cannot
     * be made to show.
     */
    public static Optional<StubBackend> behind(LockStore store) {
        return BackendStores.find(store, StubBackend.class);
    }

    /** The shared store behind this client. */
    public StubSpace space() {
        return space;
    }

    /** Arms a one-shot pause at {@code point} for calls on any lock name. */
    public Pause pauseAt(Point point) {
        return pauseAt(point, name -> true);
    }

    /** Arms a one-shot pause at {@code point} for calls on a lock name {@code names} accepts. */
    public Pause pauseAt(Point point, Predicate<String> names) {
        Pause pause = new Pause(names);
        if (pauses.putIfAbsent(point, pause) != null) {
            throw new IllegalStateException("a pause at " + point + " is already armed");
        }
        return pause;
    }

    private void pass(Point point, String name, Grant grant) {
        Pause pause = pauses.get(point);
        if (pause != null && pause.matches(name) && pauses.remove(point, pause)) {
            pause.hold(grant);
        }
    }

    private void passRenew(Point point, List<Renewal> renewals) {
        Pause pause = pauses.get(point);
        if (pause == null) {
            return;
        }
        for (Renewal r : renewals) {
            if (pause.matches(r.grant().name())) {
                if (pauses.remove(point, pause)) {
                    pause.hold(r.grant());
                }
                return;
            }
        }
    }

    /** Makes every later renew call throw what {@code failure} supplies (null: renew normally again). */
    public void failRenewalsWith(Supplier<? extends RuntimeException> failure) {
        this.renewFailure = failure;
    }

    /** How many times the core called renew. */
    public int renewCalls() {
        return renewCalls.get();
    }

    /** How many acquire calls are in this backend right now (waits that did not end would stay counted). */
    public int waitsInProgress() {
        return waitsInProgress.get();
    }

    /** Reports leases as bound to a session (as ZooKeeper) or to a lease time. */
    public void leaseModel(LeaseModel leaseModel) {
        this.model = leaseModel;
    }

    /** The core's listener for connection events: raise {@code suspended()}, {@code lost(...)} and so on with it. */
    public LeaseEvents events() {
        return events;
    }

    @Override
    public Terms terms() {
        return new Terms(model, null, 1024);
    }

    @Override
    public void attach(LeaseEvents coreEvents) {
        this.events = coreEvents;
    }

    @Override
    public Grant acquire(String name, Duration leaseTime, Wait wait) throws InterruptedException {
        checkLeaseTime(leaseTime);
        waitsInProgress.incrementAndGet();
        Grant grant;
        try {
            grant = store.acquire(name, leaseTime, wait);
        } finally {
            waitsInProgress.decrementAndGet();
        }
        if (grant != null) {
            probe.at(this, "granted", name, grant);
            pass(Point.AFTER_GRANT, name, grant);
        }
        return grant;
    }

    /** The core's {@link CorePoints}: the probe at {@code point} (a yield point for a scheduler). */
    @Override
    public void reached(String point, Grant grant) {
        probe.at(this, point, grant.name(), grant);
    }

    @Override
    public boolean release(Grant grant) {
        probe.at(this, "release", grant.name(), grant);
        space.operation("release");
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

    @Override
    public Set<Grant> renew(List<Renewal> renewals) {
        renewCalls.incrementAndGet();
        Supplier<? extends RuntimeException> failure = renewFailure;
        if (failure != null) {
            throw failure.get();
        }
        String first = renewals.isEmpty() ? "" : renewals.get(0).grant().name();
        probe.at(this, "renew", first, null);
        renewals.forEach(r -> checkLeaseTime(r.leaseTime()));
        space.operation("renew");
        passRenew(Point.RENEW_BEFORE_STORE, renewals);
        Set<Grant> lost = new HashSet<>();
        for (Renewal renewal : renewals) {
            Grant grant = renewal.grant();
            long now = System.nanoTime();
            boolean[] renewed = {false};
            space.entries.computeIfPresent(grant.name(), (k, current) -> {
                if (current.ownerToken().equals(grant.ownerToken()) && !current.expiredAt(now)) {
                    renewed[0] = true;
                    return new StubSpace.Entry(current.ownerToken(), current.fence(),
                            StubSpace.Entry.expiryAt(now, renewal.leaseTime()));
                }
                return current;
            });
            if (!renewed[0]) {
                lost.add(grant);
            }
        }
        passRenew(Point.RENEW_AFTER_STORE, renewals);
        probe.at(this, "renewed", first, null);
        return lost;
    }

    @Override
    public LockAdmin admin() {
        return this;
    }

    @Override
    public List<LockInfo> list(String prefix, int limit) {
        space.operation("list");
        long now = System.nanoTime();
        return space.entries.entrySet().stream()
                .filter(e -> e.getKey().startsWith(prefix == null ? "" : prefix))
                .filter(e -> !e.getValue().expiredAt(now))
                .sorted(Map.Entry.comparingByKey(Comparator.naturalOrder()))
                .limit(limit)
                .map(e -> new LockInfo(e.getKey(), e.getValue().fence(),
                        Duration.ofNanos(e.getValue().remainingAt(now)), "stub"))
                .toList();
    }

    @Override
    public boolean forceRelease(String name) {
        space.operation("force-release");
        long now = System.nanoTime();
        StubSpace.Entry removed = space.entries.remove(name);
        space.signals.signal(name);
        return removed != null && !removed.expiredAt(now);
    }

    /** Removes the entry only if it is the unexpired one with {@code fencingToken}: one atomic map operation. */
    @Override
    public boolean forceRelease(String name, long fencingToken) {
        space.operation("force-release");
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
    public void closing() {
        store.closing();
    }

    @Override
    public void close() {
        closed = true;
    }

    @Override
    public String toString() {
        return "StubBackend[" + model + "]";
    }

    /** The atomic attempts and the shared core's wait loop. */
    private final class Store extends PollingLockBackend {
        @Override
        public Terms terms() {
            return StubBackend.this.terms();
        }

        @Override
        public ReleaseSignals signals() {
            return space.signals;
        }

        @Override
        protected Attempt attempt(String name, Duration leaseTime) {
            probe.at(StubBackend.this, "acquire", name, null);
            space.operation("acquire");
            String token = OwnerTokens.newToken();
            long now = System.nanoTime();
            StubSpace.Entry after = space.entries.compute(name, (k, current) -> {
                if (current != null && !current.expiredAt(now)) {
                    return current;
                }
                return new StubSpace.Entry(token, space.nextFence(name, leaseTime),
                        StubSpace.Entry.expiryAt(now, leaseTime));
            });
            if (after.ownerToken().equals(token)) {
                return Attempt.granted(new Grant(name, token, after.fence(), null, now));
            }
            return Attempt.held(Math.max(0, after.remainingAt(now)));
        }

        @Override
        public boolean release(Grant grant) {
            return StubBackend.this.release(grant);
        }

        @Override
        public Set<Grant> renew(List<Renewal> renewals) {
            return StubBackend.this.renew(renewals);
        }

        @Override
        public void close() {
        }
    }
}
