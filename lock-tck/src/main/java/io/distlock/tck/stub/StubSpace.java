package io.distlock.tck.stub;

import io.distlock.LockException;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import io.distlock.spi.ReleaseSignals;
import io.distlock.tck.FenceStateTampering;
import io.distlock.tck.NameLeftovers;
import io.distlock.tck.SpoiledNameState;
import io.distlock.tck.StoreOutage;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The "server" behind one or more {@link StubBackend}s: who holds each lock until when (by {@link System#nanoTime()}),
 * the fencing counters, release wake-ups, and an on/off switch that makes every operation of every client fail with
 * {@link StoreUnavailableException} after an operation timeout, as a stopped server would. The fencing counters
 * count from 1, or, in a space {@link #withClockFloor() with a clock floor}, take the larger of the last token plus
 * one and the clock in microseconds, as the SQL and Redis stores do, so a counter deleted through
 * {@link #fenceTampering()} never repeats a token.
 */
public final class StubSpace {

    /** A held lock in the stub store. */
    record Entry(String ownerToken, long fence, long expiresAtNanos) {
        /** The expiry of an operator's far-off TTL: never reached (nanoTime arithmetic wraps past 2^63). */
        static final long NEVER = Long.MIN_VALUE;

        boolean expiredAt(long now) {
            return expiresAtNanos != NEVER && now - expiresAtNanos >= 0;
        }

        /**
         * The expiry of a lease of {@code ttl} taken at {@code now}: {@link #NEVER} for 2^62 ns (146 years) or more,
         * so a lease time the core lets through, however long, is kept as a store keeps it and never wraps.
         */
        static long expiryAt(long now, Duration ttl) {
            long nanos = nanosOf(ttl);
            return nanos >= 1L << 62 ? NEVER : now + nanos;
        }

        /** {@code d} in nanoseconds, {@link Long#MAX_VALUE} if it is too long to count so. */
        static long nanosOf(Duration d) {
            try {
                return d.toNanos();
            } catch (ArithmeticException tooLong) {
                return Long.MAX_VALUE;
            }
        }

        /** The time left at {@code now}, in nanoseconds; a far-off expiry reports a TTL next to Long.MAX_VALUE. */
        long remainingAt(long now) {
            return expiresAtNanos == NEVER ? Long.MAX_VALUE - 1 : expiresAtNanos - now;
        }
    }

    final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, AtomicLong> fences = new ConcurrentHashMap<>();
    final ReleaseSignals signals = new ReleaseSignals();
    final StubPermits.Shared permits = new StubPermits.Shared();
    private final Duration operationTimeout;
    private final boolean clockFloor;
    private volatile CountDownLatch up = new CountDownLatch(0);

    private StubSpace(Duration operationTimeout, boolean clockFloor) {
        this.operationTimeout = operationTimeout;
        this.clockFloor = clockFloor;
    }

    /** A space whose operations, while it is stopped, fail after {@code operationTimeout}. */
    public StubSpace(Duration operationTimeout) {
        this(operationTimeout, false);
    }

    /** A space with a 200 ms operation timeout. */
    public StubSpace() {
        this(Duration.ofMillis(200));
    }

    /**
     * A space with a 200 ms operation timeout whose fences never fall below the clock in microseconds; a counter at
     * {@link Long#MAX_VALUE} fails the acquire with a {@link LockException} naming the lock.
     */
    public static StubSpace withClockFloor() {
        return new StubSpace(Duration.ofMillis(200), true);
    }

    /** How long an operation on the stopped store takes before it fails. */
    public Duration operationTimeout() {
        return operationTimeout;
    }

    /** A new client of this space, with its own backend, behind the shared core ({@link StubBackend#behind}). */
    public LockStore openStore() {
        return BackendStores.over(new StubBackend(this), "stub");
    }

    /** Stops the store: operations in flight and new ones fail after the operation timeout until {@link #start()}. */
    public synchronized void stop() {
        if (up.getCount() == 0) {
            up = new CountDownLatch(1);
        }
    }

    /** Brings the store back. */
    public synchronized void start() {
        up.countDown();
    }

    /** This space as the kit's outage control (§14, §15): {@link #stop()} and {@link #start()}. */
    public StoreOutage outage() {
        return new StoreOutage() {
            @Override
            public void stop() {
                StubSpace.this.stop();
            }

            @Override
            public void start() {
                StubSpace.this.start();
            }
        };
    }

    /** Waits out an operation on a stopped store: returns once it runs, or throws after the operation timeout. */
    void operation(String what) {
        CountDownLatch latch = up;
        if (latch.getCount() == 0) {
            return;
        }
        boolean back;
        try {
            back = latch.await(operationTimeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("interrupted during " + what + " on the stopped stub store", e);
        }
        if (!back) {
            throw new StoreUnavailableException(what + " timed out after " + operationTimeout.toMillis()
                    + " ms: the stub store is stopped");
        }
    }

    long nextFence(String name, Duration leaseTime) {
        AtomicLong counter = fences.computeIfAbsent(name, k -> new AtomicLong());
        if (!clockFloor) {
            return counter.incrementAndGet();
        }
        long fence = counter.updateAndGet(last -> {
            if (last == Long.MAX_VALUE) {
                throw new LockException("the fencing counter of lock '" + name + "' holds " + last
                        + ", the largest token: no larger one can be granted");
            }
            return Math.max(last + 1, clockMicros());
        });
        long keep = Math.min(Entry.nanosOf(leaseTime.plus(RECLAIM_GRACE)) / 1000, Long.MAX_VALUE / 4);
        long from = reclaim == Reclaim.AFTER_LEASE ? clockMicros() : Math.max(clockMicros(), fence);
        retainUntil.merge(name, from + keep, Math::max);
        return fence;
    }

    private static long clockMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
    }

    /** How a space reclaims the fencing counter of a name nobody uses any more (§26). */
    public enum Reclaim {
        /** Never: every name ever used keeps its counter. */
        NEVER,
        /** A grace after its last lease, also when the counter is ahead of the clock: the next token can go back. */
        AFTER_LEASE,
        /** A grace after its last lease and not before the clock has passed the counter. */
        SAFE
    }

    /** The grace past the lease after which a reclaiming space deletes a counter. */
    public static final Duration RECLAIM_GRACE = Duration.ofMillis(500);

    private final ConcurrentHashMap<String, Long> retainUntil = new ConcurrentHashMap<>();
    private volatile Reclaim reclaim = Reclaim.NEVER;

    /** This space reclaiming counters as {@code how} says (a space with a clock floor; the default is never). */
    public StubSpace reclaiming(Reclaim how) {
        this.reclaim = how;
        return this;
    }

    /**
     * The kit's count of what this space keeps of names used once (§26): a name's holder entry while unexpired and
     * its counter until reclaimed; counting first reclaims what is due, as a store's own expiry or sweep would.
     */
    public NameLeftovers nameLeftovers() {
        return new NameLeftovers() {
            @Override
            public Duration grace() {
                return RECLAIM_GRACE;
            }

            @Override
            public long count(String namePrefix) {
                long nowMicros = clockMicros();
                long nanos = System.nanoTime();
                if (reclaim != Reclaim.NEVER) {
                    retainUntil.forEach((name, until) -> {
                        Entry held = entries.get(name);
                        if (until <= nowMicros && (held == null || held.expiredAt(nanos))) {
                            fences.remove(name);
                            retainUntil.remove(name, until);
                        }
                    });
                }
                long unexpired = entries.entrySet().stream()
                        .filter(e -> e.getKey().startsWith(namePrefix) && !e.getValue().expiredAt(nanos)).count();
                return unexpired + fences.keySet().stream().filter(n -> n.startsWith(namePrefix)).count();
            }

            @Override
            public long pushLockCounterAhead(String name, Duration ahead) {
                long value = clockMicros() + ahead.toNanos() / 1000;
                fences.computeIfAbsent(name, k -> new AtomicLong()).set(value);
                return value;
            }
        };
    }

    /**
     * The kit's hand on this space's fencing counters (§19): forgetting removes a lock's counter, overwriting sets it
     * to 0, -5, a value 10^12 ahead, or {@link Long#MAX_VALUE} (a counter holds no text or empty value).
     */
    public FenceStateTampering fenceTampering() {
        return new FenceStateTampering() {
            @Override
            public boolean forgetLock(String name) {
                fences.remove(name);
                return true;
            }

            @Override
            public boolean overwriteLock(String name, ForeignValue value) {
                AtomicLong counter = fences.computeIfAbsent(name, k -> new AtomicLong());
                switch (value) {
                    case ZERO -> counter.set(0);
                    case NEGATIVE -> counter.set(-5);
                    case FAR_AHEAD -> counter.addAndGet(1_000_000_000_000L);
                    case LARGEST -> counter.set(Long.MAX_VALUE);
                    default -> {
                        return false;
                    }
                }
                return true;
            }
        };
    }

    /**
     * The kit's hand on this space's holder records (§20): spoiling a held lock gives its entry an owner no grant
     * writes (as an operator's hand-made value would), so no client's renewal or release matches it; it expires at
     * the holder's expiry, as before. The stub keeps no semaphores.
     */
    public SpoiledNameState spoiledNameState() {
        return name -> entries.computeIfPresent(name,
                (k, current) -> new Entry(SPOILED_OWNER, current.fence(), current.expiresAtNanos())) != null;
    }

    /** The owner a spoiled entry names: no grant's token (those come from {@code OwnerTokens}). */
    private static final String SPOILED_OWNER = "spoiled by an operator";

    /**
     * Ends one holder's hold as a store does behind its client's back (a session that ended, a node deleted): removes
     * {@code name}'s entry if {@code ownerToken} holds it, and wakes its waiters. True if it was held by that token.
     */
    public boolean dropHolder(String name, String ownerToken) {
        boolean[] dropped = {false};
        entries.computeIfPresent(name, (k, current) -> {
            if (current.ownerToken().equals(ownerToken)) {
                dropped[0] = true;
                return null;
            }
            return current;
        });
        if (dropped[0]) {
            signals.signal(name);
        }
        return dropped[0];
    }

    /** The owner tokens of the live permits of semaphore {@code name} (for the clients that have semaphores). */
    public java.util.Set<String> permitHolders(String name) {
        return permits.holders(name);
    }

    /** The owner token of {@code name}'s current (unexpired) holder, or null if it is free. */
    public String holderToken(String name) {
        Entry e = entries.get(name);
        return e == null || e.expiredAt(System.nanoTime()) ? null : e.ownerToken();
    }

    /** How long {@code name}'s current holder still holds it by the store's clock, or null if it is free. */
    public Duration holderRemaining(String name) {
        Entry e = entries.get(name);
        long now = System.nanoTime();
        return e == null || e.expiredAt(now) ? null : Duration.ofNanos(e.remainingAt(now));
    }

    /** When the store expires {@code name}'s current holder ({@link System#nanoTime()}), or empty if it is free. */
    public java.util.OptionalLong expiresAtNanos(String name) {
        Entry e = entries.get(name);
        return e == null || e.expiredAt(System.nanoTime()) ? java.util.OptionalLong.empty()
                : java.util.OptionalLong.of(e.expiresAtNanos());
    }

    /**
     * An operator's expiry on {@code name}'s current holder (as a PEXPIRE by hand): it then expires {@code ttl} from
     * now; a TTL of 2^62 ns or more never expires and is reported to waiters as a TTL next to {@link Long#MAX_VALUE}
     * (far off: they must not turn it into a busy loop). True if the name was held.
     */
    public boolean operatorExpiry(String name, Duration ttl) {
        long now = System.nanoTime();
        long expiresAt = Entry.expiryAt(now, ttl);
        return entries.computeIfPresent(name, (k, current) -> current.expiredAt(now) ? current
                : new Entry(current.ownerToken(), current.fence(), expiresAt)) != null;
    }
}
