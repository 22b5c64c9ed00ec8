package io.distlock.micrometer;

import io.distlock.LockLostException;
import io.distlock.micrometer.LockStoreMetrics.Outcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The semaphore meters of one {@link LockStoreMetrics}, tagged {@code semaphore=<name>} for the first
 * {@code maxNames} names seen and {@code semaphore=_other} after that, so a service that makes up names cannot
 * grow the registry without bound. One {@link Meters} set per tag value, created on first use.
 */
final class PermitMetrics {

    private final MeterRegistry registry;
    private final Tags storeTags;
    private final int maxNames;
    private final ConcurrentHashMap<String, Meters> byName = new ConcurrentHashMap<>();
    /** The meters of every name beyond the bound; guarded by {@code byName}. */
    private Meters others;

    PermitMetrics(MeterRegistry registry, Tags storeTags, int maxNames) {
        this.registry = registry;
        this.storeTags = storeTags;
        this.maxNames = maxNames;
    }

    /** The meters of semaphore {@code name}, or of the shared tag once {@code maxNames} names have their own. */
    Meters of(String name) {
        Meters own = byName.get(name);
        if (own != null) {
            return own;
        }
        synchronized (byName) {
            own = byName.get(name);
            if (own != null) {
                return own;
            }
            if (byName.size() < maxNames) {
                own = new Meters(storeTags.and("semaphore", name));
                byName.put(name, own);
                return own;
            }
            if (others == null) {
                others = new Meters(storeTags.and("semaphore", LockStoreMetrics.OTHER_NAMES));
            }
            return others;
        }
    }

    /** The meters of one tag value. */
    final class Meters {
        private final Map<Outcome, Timer> acquire = new EnumMap<>(Outcome.class);
        private final Map<LostCause, Counter> lost = new EnumMap<>(LostCause.class);
        private final Counter released;
        private final AtomicInteger held = new AtomicInteger();
        private final AtomicInteger waiters = new AtomicInteger();

        Meters(Tags tags) {
            for (Outcome outcome : Outcome.values()) {
                acquire.put(outcome, Timer.builder("distlock.permits.acquire")
                        .description("time spent waiting for a permit").tags(tags).tag("outcome", outcome.tag())
                        .register(registry));
            }
            for (LostCause cause : LostCause.values()) {
                lost.put(cause, Counter.builder("distlock.permits.lost").description("permits lost while held")
                        .tags(tags).tag("cause", cause.tag()).register(registry));
            }
            released = Counter.builder("distlock.permits.released").description("permits released while held")
                    .tags(tags).register(registry);
            Gauge.builder("distlock.permits.held", held, AtomicInteger::get)
                    .description("permits this process holds now").tags(tags).register(registry);
            Gauge.builder("distlock.permits.waiters", waiters, AtomicInteger::get)
                    .description("local threads waiting for a permit").tags(tags).register(registry);
        }

        void waiting(int delta) {
            waiters.addAndGet(delta);
        }

        void acquired(Outcome outcome, long waitedNanos) {
            acquire.get(outcome).record(waitedNanos, TimeUnit.NANOSECONDS);
            if (outcome == Outcome.ACQUIRED) {
                held.incrementAndGet();
            }
        }

        void released() {
            released.increment();
            held.decrementAndGet();
        }

        void lost(LockLostException e) {
            lost.get(LostCause.of(e)).increment();
            held.decrementAndGet();
        }
    }
}
