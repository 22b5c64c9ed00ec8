package io.distlock.micrometer;

import io.distlock.LockLostException;
import io.distlock.LockStore;
import io.distlock.LockStoreListener;
import io.distlock.StoreOptions;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Micrometer metrics of one {@link LockStore}: open the store with {@link #open(String)} (or open it with
 * {@link #listener()} and wrap it with {@link #instrument(LockStore)}), use the returned store everywhere, and bind
 * this object to a registry (Spring Boot binds every {@link MeterBinder} bean).
 *
 * <p>Meters, each tagged {@code store=<name>}:
 * <ul>
 *   <li>{@code distlock.acquire} (timer, tag {@code outcome}: {@code acquired}, {@code timed_out},
 *       {@code unavailable}, {@code interrupted}, {@code failed} for any other exception): how long callers
 *       waited for a lock;</li>
 *   <li>{@code distlock.held} (timer): from acquisition to release or loss of an outermost lease;</li>
 *   <li>{@code distlock.lost} (counter, tag {@code cause}): leases lost while held;</li>
 *   <li>{@code distlock.renewals} (counter, tag {@code trigger}: {@code background} for the store's renewal
 *       thread, {@code explicit} for {@code Lease.extend}): renewal round trips; {@code distlock.renewals.failed}
 *       (counter): background round trips that found the store unreachable;</li>
 *   <li>{@code distlock.leases.held} (gauge): outermost leases held now;</li>
 *   <li>{@code distlock.waiters} (gauge): threads of this process waiting in an acquire now.</li>
 * </ul>
 * Semaphores have meters of their own, tagged also {@code semaphore=<name>} (a bounded number of names, then
 * {@code _other}): {@code distlock.permits.acquire} (timer, tag {@code outcome}), {@code distlock.permits.released}
 * and {@code distlock.permits.lost} (counters, the latter tagged {@code cause}), {@code distlock.permits.held} and
 * {@code distlock.permits.waiters} (gauges of this process).
 * Meters are created once, on an internal composite registry, so recording costs what a Micrometer timer costs and
 * a registry bound later still gets them.
 */
public final class LockStoreMetrics implements MeterBinder {

    /** How an acquire call ended. */
    enum Outcome {
        ACQUIRED, TIMED_OUT, UNAVAILABLE, INTERRUPTED,
        /** The call failed for another reason than the store: a bad argument, a closed store. */
        FAILED;

        String tag() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** The {@code semaphore} tag of every semaphore beyond the bound on names. */
    public static final String OTHER_NAMES = "_other";
    /** How many semaphore names get a tag of their own unless told otherwise. */
    public static final int DEFAULT_MAX_SEMAPHORE_NAMES = 100;

    private final CompositeMeterRegistry meters = new CompositeMeterRegistry();
    private final PermitMetrics permits;
    private final Map<Outcome, Timer> acquire = new EnumMap<>(Outcome.class);
    private final Map<LostCause, Counter> lost = new EnumMap<>(LostCause.class);
    private final Timer held;
    private final Counter renewals;
    private final Counter backgroundRenewals;
    private final Counter failedRenewals;
    private final AtomicInteger heldLeases = new AtomicInteger();
    private final AtomicInteger waiters = new AtomicInteger();
    /** Outermost holds by lock name and fencing token: how many leases share each, and since when. */
    private final ConcurrentHashMap<HoldKey, HoldCount> holds = new ConcurrentHashMap<>();
    /** Counts the background renewal round trips of a store opened with it. */
    private final LockStoreListener listener = new LockStoreListener() {
        @Override
        public void renewed(int leases, int lost, long nanos) {
            backgroundRenewals.increment();
        }

        @Override
        public void renewalFailed(int leases, long nanos, RuntimeException cause) {
            backgroundRenewals.increment();
            failedRenewals.increment();
        }
    };

    /**
     * Metrics tagged {@code store=storeName}.
     *
     * @param storeName a short name for the store in dashboards, for example {@code orders}; never the URI, which
     *        may carry a password
     * @throws IllegalArgumentException if {@code storeName} is blank
     */
    public LockStoreMetrics(String storeName) {
        this(storeName, DEFAULT_MAX_SEMAPHORE_NAMES);
    }

    /**
     * Metrics tagged {@code store=storeName}, whose semaphore meters tag at most {@code maxSemaphoreNames} names
     * with their own {@code semaphore} tag (the first ones used) and every later name {@code semaphore=_other}.
     *
     * @throws IllegalArgumentException if {@code storeName} is blank or {@code maxSemaphoreNames} is negative
     */
    public LockStoreMetrics(String storeName, int maxSemaphoreNames) {
        Objects.requireNonNull(storeName, "storeName must not be null");
        if (storeName.isBlank()) {
            throw new IllegalArgumentException("storeName must not be blank");
        }
        if (maxSemaphoreNames < 0) {
            throw new IllegalArgumentException("maxSemaphoreNames must not be negative, got " + maxSemaphoreNames);
        }
        Tags tags = Tags.of(Tag.of("store", storeName));
        this.permits = new PermitMetrics(meters, tags, maxSemaphoreNames);
        for (Outcome outcome : Outcome.values()) {
            acquire.put(outcome, Timer.builder("distlock.acquire").description("time spent waiting for a lock")
                    .tags(tags).tag("outcome", outcome.tag()).register(meters));
        }
        for (LostCause cause : LostCause.values()) {
            lost.put(cause, Counter.builder("distlock.lost").description("leases lost while held")
                    .tags(tags).tag("cause", cause.tag()).register(meters));
        }
        held = Timer.builder("distlock.held").description("time from acquisition to release or loss of a lease")
                .tags(tags).register(meters);
        renewals = Counter.builder("distlock.renewals").description("renewal round trips")
                .tags(tags).tag("trigger", "explicit").register(meters);
        backgroundRenewals = Counter.builder("distlock.renewals").description("renewal round trips")
                .tags(tags).tag("trigger", "background").register(meters);
        failedRenewals = Counter.builder("distlock.renewals.failed")
                .description("background renewal round trips that found the store unreachable")
                .tags(tags).register(meters);
        Gauge.builder("distlock.leases.held", heldLeases, AtomicInteger::get)
                .description("outermost leases held now").tags(tags).register(meters);
        Gauge.builder("distlock.waiters", waiters, AtomicInteger::get)
                .description("local threads waiting to acquire a lock").tags(tags).register(meters);
    }

    /**
     * Opens the store named by {@code uri} with {@code options} plus this object's {@link #listener()}, and
     * {@linkplain #instrument instruments} it: every acquisition, release, loss and renewal, background renewals
     * included, is recorded here.
     *
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException as {@link LockStore#open(String)}
     */
    public LockStore open(String uri, StoreOptions options) {
        Objects.requireNonNull(options, "options must not be null");
        return instrument(LockStore.open(uri, options.withListener(listener)));
    }

    /** {@link #open(String, StoreOptions)} with {@link StoreOptions#defaults()}. */
    public LockStore open(String uri) {
        return open(uri, StoreOptions.defaults());
    }

    /**
     * The listener that counts a store's background renewal round trips ({@code distlock.renewals} with
     * {@code trigger=background}, {@code distlock.renewals.failed}): give it to the store when opening it
     * ({@link StoreOptions#withListener}), as {@link #open(String, StoreOptions)} does.
     */
    public LockStoreListener listener() {
        return listener;
    }

    /**
     * {@code store} with every acquisition, release, loss and explicit renewal recorded here. Background renewal
     * round trips are seen only when {@code store} was opened with {@link #listener()} (or through
     * {@link #open(String, StoreOptions)}).
     *
     * @throws NullPointerException if {@code store} is null
     */
    public LockStore instrument(LockStore store) {
        Objects.requireNonNull(store, "store must not be null");
        return new MeteredLockStore(store, this);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        meters.add(registry);
    }

    /** The semaphore meters of {@code name} (its own tag, or the shared one beyond the bound). */
    PermitMetrics.Meters permits(String name) {
        return permits.of(name);
    }

    void waiting(int delta) {
        waiters.addAndGet(delta);
    }

    void acquired(Outcome outcome, long waitedNanos) {
        acquire.get(outcome).record(waitedNanos, TimeUnit.NANOSECONDS);
    }

    void renewed() {
        renewals.increment();
    }

    /** A lease was handed out; returns whether it is the outermost of its hold (and so the one that is watched). */
    boolean leaseStarted(String name, long fencingToken) {
        HoldKey key = new HoldKey(name, fencingToken);
        boolean[] first = {false};
        holds.compute(key, (k, count) -> {
            if (count == null) {
                first[0] = true;
                heldLeases.incrementAndGet();
                return new HoldCount(System.nanoTime());
            }
            count.leases++;
            return count;
        });
        return first[0];
    }

    /** A lease was released; the outermost one ends the hold. */
    void leaseEnded(String name, long fencingToken) {
        holds.computeIfPresent(new HoldKey(name, fencingToken), (k, count) -> {
            if (--count.leases > 0) {
                return count;
            }
            endHold(count);
            return null;
        });
    }

    /** The hold behind a lease was lost. */
    void leaseLost(LockLostException e) {
        lost.get(LostCause.of(e)).increment();
        HoldCount count = holds.remove(new HoldKey(e.lockName(), e.fencingToken()));
        if (count != null) {
            endHold(count);
        }
    }

    private void endHold(HoldCount count) {
        heldLeases.decrementAndGet();
        held.record(System.nanoTime() - count.sinceNanos, TimeUnit.NANOSECONDS);
    }

    private record HoldKey(String name, long fencingToken) {
    }

    /** Mutated only inside the map's compute functions. */
    private static final class HoldCount {
        final long sinceNanos;
        int leases = 1;

        HoldCount(long sinceNanos) {
            this.sinceNanos = sinceNanos;
        }
    }
}
