package io.distlock.spi;

import io.distlock.Arguments;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongBinaryOperator;
import java.util.function.Supplier;

/**
 * A backend whose store offers one atomic acquire attempt (Redis {@code SET NX PX}, a conditional SQL upsert, the
 * in-memory map). This class turns attempts into waiting: after a failed attempt it sleeps until a release signal
 * for the name ({@link #signals()}), the holder's remaining lease, or the next poll, whichever comes first, so a
 * lost signal costs at most one poll, never a hang.
 */
public abstract class PollingLockBackend implements LockBackend {

    /**
     * The answer of one {@link #attempt}: either a grant, or the information that someone else holds the lock and,
     * if the store said, for how long at most (what the wait loop sleeps on).
     *
     * @param grant the grant, or null if the lock is held elsewhere
     * @param holderTtlNanos the holder's remaining lease in nanoseconds when known, else -1
     */
    public record Attempt(Grant grant, long holderTtlNanos) {

        /** The lock was granted. */
        public static Attempt granted(Grant grant) {
            return new Attempt(grant, -1);
        }

        /** Someone else holds the lock for at most {@code holderTtlNanos} (or -1 when unknown). */
        public static Attempt held(long holderTtlNanos) {
            return new Attempt(null, holderTtlNanos);
        }

        /** Whether the lock was granted. */
        public boolean isGranted() {
            return grant != null;
        }
    }

    private final ReleaseSignals signals = new ReleaseSignals();

    /**
     * One atomic attempt to take {@code name} for {@code leaseTime}.
     *
     * @throws io.distlock.StoreUnavailableException if the store cannot be reached
     */
    protected abstract Attempt attempt(String name, Duration leaseTime);

    /** Where waiters of this backend wait; signal it when a release of a name becomes known. */
    public ReleaseSignals signals() {
        return signals;
    }

    /**
     * How long to wait before the next attempt, after {@code failures} failed ones, when the holder's lease has
     * {@code holderTtlNanos} left (or -1 if unknown). The default backs off exponentially from 2 ms to 250 ms with
     * jitter, and never waits past the holder's expiry.
     */
    protected long pollDelayNanos(int failures, long holderTtlNanos) {
        return notPastHolderExpiry(Backoff.pollNanos(failures), holderTtlNanos);
    }

    /** {@code delayNanos}, cut to {@link #untilHolderExpiry} when the holder's TTL is known ({@code >= 0}). */
    protected static long notPastHolderExpiry(long delayNanos, long holderTtlNanos) {
        return holderTtlNanos >= 0 ? Math.min(delayNanos, untilHolderExpiry(holderTtlNanos)) : delayNanos;
    }

    /**
     * The nanoseconds until a holder with {@code holderTtlNanos} left has surely expired: its TTL plus 1 ms, and
     * {@link Long#MAX_VALUE} rather than a negative number for a TTL near it (an operator's far-off expiry), which
     * would turn the wait into a loop of attempts.
     */
    protected static long untilHolderExpiry(long holderTtlNanos) {
        long margin = TimeUnit.MILLISECONDS.toNanos(1);
        return holderTtlNanos > Long.MAX_VALUE - margin ? Long.MAX_VALUE : holderTtlNanos + margin;
    }

    /**
     * One attempt of an acquire that waits, after {@code failed} failed attempts of the same acquire (0 for its
     * first): {@link #attempt} unless the backend tells the two apart. A single try ({@code tryAcquire()}) calls
     * {@link #attempt} itself, so a backend that lets a waiter skip attempts (MariaDB's turns) never skips it.
     */
    protected Attempt waitingAttempt(String name, Duration leaseTime, int failed) {
        return attempt(name, leaseTime);
    }

    /**
     * Called on the acquiring thread before an acquire that waits makes its first attempt at {@code name}; nothing
     * by default. Release signals may be shared with other stores, so a backend that wants to know whether a waiter
     * of its own still waits (MariaDB's turns) counts them between this and {@link #waitEnds}.
     */
    protected void waitBegins(String name) {
    }

    /** Called on the acquiring thread when an acquire that waited ends, however it ends; nothing by default. */
    protected void waitEnds(String name) {
    }

    /** An attempt of a single try ({@code failed} -1) or of a waiting acquire after {@code failed} failures. */
    private Attempt timedAttempt(String name, Duration leaseTime, int failed) {
        return timed(() -> failed < 0 ? attempt(name, leaseTime) : waitingAttempt(name, leaseTime, failed));
    }

    /**
     * Makes {@code attempt}, for locks and permits ({@link PermitWaits}) alike: its grant's issue time is the moment
     * the attempt was sent, unless the attempt filled it in.
     */
    static Attempt timed(Supplier<Attempt> attempt) {
        long sentAt = System.nanoTime();
        Attempt made = attempt.get();
        return made.isGranted() && made.grant().issuedAtNanos() < 0 ? Attempt.granted(made.grant().issuedAt(sentAt))
                : made;
    }

    /**
     * Whether a waiting acquire makes its first attempt before it takes its release ticket, so that an acquire that
     * gets the lock at once registers nothing (a release signalled between that attempt and the ticket is still seen,
     * through {@link ReleaseSignals#mark}). False by default: a backend whose attempt asks
     * {@link ReleaseSignals#hasWaiters}, which counts tickets, needs the ticket first.
     */
    protected boolean firstAttemptBeforeTicket() {
        return false;
    }

    @Override
    public final Grant acquire(String name, Duration leaseTime, Wait wait) throws InterruptedException {
        return acquireAfterCourtesy(name, leaseTime, wait, 0);
    }

    /**
     * Waits for a release signal of {@code name} (another client's release ends the courtesy) or the courtesy's
     * end, whichever comes first, then acquires as {@link #acquire} does, on the same ticket: a polling backend that
     * implements {@link HandOvers} has its {@link HandOvers#acquireAfterCourtesy} here.
     */
    public final Grant acquireAfterCourtesy(String name, Duration leaseTime, Wait wait, long courtesyNanos)
            throws InterruptedException {
        if (wait.isNone()) {
            return timedAttempt(name, leaseTime, -1).grant();
        }
        waitBegins(name);
        try {
            return waitingAcquire(name, leaseTime, wait, courtesyNanos);
        } finally {
            waitEnds(name);
        }
    }

    private Grant waitingAcquire(String name, Duration leaseTime, Wait wait, long courtesyNanos)
            throws InterruptedException {
        if (courtesyNanos > 0 || !firstAttemptBeforeTicket()) {
            try (ReleaseSignals.Ticket ticket = signals().ticket(name)) {
                if (courtesyNanos > 0) {
                    ticket.await(wait.cap(courtesyNanos)); // ends at the first release of the name heard of
                }
                return waitFor(name, leaseTime, wait, ticket, null);
            }
        }
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted while waiting for lock " + Arguments.quoted(name));
        }
        long mark = signals().mark(name);
        Attempt first = timedAttempt(name, leaseTime, 0);
        if (first.isGranted()) {
            return first.grant();
        }
        try (ReleaseSignals.Ticket ticket = signals().ticketSince(name, mark)) {
            return waitFor(name, leaseTime, wait, ticket, first);
        }
    }

    /** Attempts until granted or {@code wait} ends, sleeping on {@code ticket}; {@code first}: an attempt made. */
    private Grant waitFor(String name, Duration leaseTime, Wait wait, ReleaseSignals.Ticket ticket, Attempt first)
            throws InterruptedException {
        int[] failed = {first == null ? 0 : 1};
        return waitFor("lock", name, wait, ticket, first, () -> timedAttempt(name, leaseTime, failed[0]++),
                (failures, holderTtlNanos) -> pollDelayNanos((int) failures, holderTtlNanos));
    }

    /**
     * The one wait loop of stores that offer atomic attempts, for locks and permits ({@link PermitWaits}) alike:
     * attempts until granted or {@code wait} ends, sleeping on {@code ticket} after each failed attempt for
     * {@code delay} (given the failures so far and the holder's TTL, or -1), so a lost signal costs at most one poll.
     *
     * @param kind what is waited for, in the interrupt's message ("lock", "a permit of semaphore")
     * @param first an attempt made already, or null
     */
    static Grant waitFor(String kind, String name, Wait wait, ReleaseSignals.Ticket ticket, Attempt first,
            Supplier<Attempt> attempts, LongBinaryOperator delay) throws InterruptedException {
        int failures = 0;
        Attempt attempt = first;
        while (true) {
            if (attempt == null) {
                if (Thread.interrupted()) {
                    throw new InterruptedException("interrupted while waiting for " + kind + " "
                            + Arguments.quoted(name));
                }
                if (wait.stopped()) {
                    return null; // the store is closing: no attempt after that
                }
                attempt = attempts.get();
                if (attempt.isGranted()) {
                    return attempt.grant();
                }
            }
            long nanos = delay.applyAsLong(failures++, attempt.holderTtlNanos());
            if (wait.expired()) {
                return null;
            }
            ticket.await(wait.cap(nanos));
            attempt = null;
        }
    }

    /** Wakes every waiter of this backend's lock signals, so it sees its stopped wait at once. */
    @Override
    public void closing() {
        signals().signalAll();
    }
}
