package io.distlock.core;

import io.distlock.Arguments;
import io.distlock.DistributedLock;
import io.distlock.Features;
import io.distlock.Lease;
import io.distlock.LeaseModel;
import io.distlock.LockAdmin;
import io.distlock.LockException;
import io.distlock.LockLostException;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.LockViews;
import io.distlock.DistributedSemaphore;
import io.distlock.StoreOptions;
import io.distlock.StoreUnavailableException;
import io.distlock.spi.Grant;
import io.distlock.spi.HandOvers;
import io.distlock.spi.InterruptFlag;
import io.distlock.spi.LeaseEvents;
import io.distlock.spi.LockBackend;
import io.distlock.spi.PermitBackend;
import io.distlock.spi.Renewal;
import io.distlock.spi.Terms;
import io.distlock.spi.Wait;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The {@link LockStore} every backend shares: it turns a {@link LockBackend}'s store operations into the public API.
 * It keeps the per-thread reentrancy, the local FIFO gate per name, the renewal thread, lease states and
 * lost-lease signals, so each backend writes only acquire, release and renew. {@link StoreDiscovery} puts every
 * provider's backend behind one.
 */
public final class BackendLockStore implements LockStore {

    private static final System.Logger LOG = System.getLogger(BackendLockStore.class.getName());

    private final LockBackend backend;
    /** The backend's hand-overs, or null if it frees a released lock and lets the next thread acquire it. */
    private final HandOvers handOvers;
    private final String description;
    /** The options of locks, semaphores and leaderships asked for by name only. */
    private final LockOptions defaultOptions;
    /** Every name in use here: its gate, queue, holds and acquisitions in flight (tests count them: no leaks). */
    final Names names = new Names();
    private final AtomicLong courtesyPauses = new AtomicLong();
    private final RenewalScheduler renewals;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final DelayedReleases delayedReleases;
    /** Whether the backend reported its connection suspended and not yet back; set before holds are walked. */
    private volatile boolean suspended;
    /** The leases each thread took through a Lock view of this store, shared by every view of a name. */
    final LockViews lockViews = new LockViews();
    /** The backend's permit operations, or null if it has no semaphores. */
    private final PermitBackend permits;
    /**
     * Acquisitions between their store call and the end of their registration, and releases under way: {@link #close()}
     * waits for them (at most {@link #CLOSE_WAIT_SECONDS}) before it closes the backend, so a grant made while it
     * closes is released, and a release is not cut off.
     */
    private final AcquisitionsInFlight acquisitionsInFlight = new AcquisitionsInFlight();
    /** Ends the waits of acquisitions inside the backend when the store closes, so the close need not wait them out. */
    private final Wait.Stop closing = new Wait.Stop();
    /**
     * The sessions the backend reported lost so far, and the last one's reason: moved on before the holds are
     * walked, so a grant whose store call began before a loss and that registers after it is checked in the store
     * (the walk only sees registered holds; the grant may be of the lost session or of the next one).
     */
    private final AtomicReference<SessionLoss> sessionLoss = new AtomicReference<>(SessionLoss.NONE);

    /**
     * How long {@link #close()} waits for acquisitions in flight (store calls whose grant is not registered yet) before
     * it closes the backend anyway: one whose call still runs then fails, and what it may have taken stays until its
     * lease time (or session) ends.
     */
    static final long CLOSE_WAIT_SECONDS = 5;

    /**
     * A store over {@code backend}.
     *
     * @param backend the store operations
     * @param description how to show this store in messages: its URI without passwords
     */
    public BackendLockStore(LockBackend backend, String description) {
        this(backend, description, StoreOptions.defaults());
    }

    /**
     * A store over {@code backend} opened with {@code options}: its default lock options and listeners.
     *
     * @param backend the store operations
     * @param description how to show this store in messages: its URI without passwords
     * @param options the options of locks asked for by name only, and the listeners of background work
     */
    public BackendLockStore(LockBackend backend, String description, StoreOptions options) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.handOvers = backend instanceof HandOvers h ? h : null;
        this.description = Objects.requireNonNull(description, "description");
        this.defaultOptions = Objects.requireNonNull(options, "options").lockOptions();
        this.renewals = new RenewalScheduler(backend, description, options.listener(), this::lose,
                this::releaseQuietly);
        this.delayedReleases = new DelayedReleases(this::releaseInStore, description);
        this.permits = backend.permits();
        backend.attach(new Events());
    }

    /** Whether the backend's leases end with its session rather than by time. */
    private boolean sessionBound() {
        return backend.terms().leaseModel() == LeaseModel.SESSION;
    }

    /** The backend behind this store, for backend-specific tests and tools. */
    public LockBackend backend() {
        return backend;
    }

    @Override
    public DistributedLock lock(String name, LockOptions options) {
        Arguments.requireLockName(name, backend.terms().maxNameLength());
        Objects.requireNonNull(options, "options must not be null");
        return new CoreLock(this, name, options);
    }

    /** A semaphore; independent of the lock of the same name (the backend keeps permits in their own space). */
    @Override
    public DistributedSemaphore semaphore(String name, int permits, LockOptions options) {
        if (this.permits == null) {
            throw new UnsupportedOperationException("store " + description + " has no semaphore support");
        }
        Arguments.requireSemaphoreName(name, backend.terms().maxNameLength());
        Arguments.requirePermits(permits, this.permits.maxPermits());
        Objects.requireNonNull(options, "options must not be null");
        return new CoreSemaphore(this, name, permits, options);
    }

    @Override
    public LockOptions defaultOptions() {
        return defaultOptions;
    }

    /** What the backend offers, read from it at each call (a session timeout may change with a new session). */
    @Override
    public Features features() {
        Terms terms = backend.terms();
        boolean session = terms.leaseModel() == LeaseModel.SESSION;
        LockAdmin admin = backend.admin();
        return new Features(terms.leaseModel(),
                session ? Optional.ofNullable(terms.sessionTimeout()) : Optional.empty(), terms.maxNameLength(),
                permits == null ? 0 : permits.maxPermits(), admin != null,
                admin != null && permits != null && admin.listsPermits(), handOvers != null);
    }

    @Override
    public LockAdmin admin() {
        LockAdmin admin = backend.admin();
        if (admin == null) {
            throw new UnsupportedOperationException("store " + description + " offers no admin view");
        }
        return new CheckedAdmin(admin, () -> backend.terms().maxNameLength());
    }

    /**
     * One attempt at a lock or permit, as {@code Lock.tryLock()}: it does not wait, so it ignores the interrupt flag
     * (the store call runs without it: store clients give up on an interrupted thread) and gives it back afterwards.
     */
    Optional<Lease> tryOnce(String name, int limit, boolean permit, LockOptions options) {
        try {
            return InterruptFlag.aside(() -> Optional.ofNullable(acquire(name, limit, permit, options, Wait.none())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** The backend's permit operations (a store with semaphores). */
    PermitBackend permits() {
        return permits;
    }

    /**
     * Acquires a lock ({@code permit} false, {@code limit} 1) or one permit of semaphore {@code name} with
     * {@code limit} within {@code wait}: one path for both. Returns null if not acquired.
     */
    Lease acquire(String name, int limit, boolean permit, LockOptions options, Wait wait)
            throws InterruptedException {
        ensureOpen();
        Thread me = Thread.currentThread();
        if (!permit) {
            Lease nested = nestedLease(name, options, me);
            if (nested != null) {
                return nested;
            }
        }
        NameState state = names.enter(name, permit);
        NameState.Waiter through;
        try {
            through = state.pass(limit, options, wait);
        } catch (InterruptedException | RuntimeException e) {
            names.leave(state);
            throw e;
        }
        if (through == null) {
            names.leave(state);
            return null;
        }
        NameState.Waiter.HandOff handed = through.handOff();
        if (handed != null) {
            try {
                return register(state, true, options, me, handed.grant(), handed.sentAtNanos(),
                        handed.sessionEpoch());
            } finally {
                acquisitionsInFlight.exit(); // entered by the releasing thread's hand-over
            }
        }
        boolean registering = false;
        boolean entered = false;
        boolean begun = false;
        try {
            entered = acquisitionsInFlight.enter();
            if (!entered) {
                throw closedWhileAcquiring(name);
            }
            long courtesy = through.courtesyNanos();
            if (courtesy > 0) {
                courtesyPauses.incrementAndGet();
            }
            long calledAt = System.nanoTime();
            long epoch = sessionEpoch();
            state.begin();
            begun = true;
            Wait inStore = wait.now().endingAt(closing); // as it stands now, and ended early by the store's close
            // one acquire in the store: a permit, or a lock (after a courtesy pause, if any)
            Grant grant = permit ? permits.acquirePermit(name, limit, options.leaseTime(), inStore)
                    : courtesy > 0 ? handOvers.acquireAfterCourtesy(name, options.leaseTime(), inStore, courtesy)
                    : backend.acquire(name, options.leaseTime(), inStore);
            if (grant == null) {
                if (closed.get()) {
                    throw closedWhileAcquiring(name); // also a wait the close ended: never "not acquired" then
                }
                return null;
            }
            registering = true;
            return register(state, through != NameState.Waiter.OUTSIDE, options, me, grant, calledAt, epoch);
        } finally {
            if (!registering) {
                state.failed(begun, through != NameState.Waiter.OUTSIDE);
                names.leave(state);
            }
            if (entered) {
                acquisitionsInFlight.exit();
            }
        }
    }

    /** Whether the store was closed (for tests that close it while threads wait on it). */
    boolean isClosed() {
        return closed.get();
    }

    /** What an acquisition the close cut off (or found closing) throws. */
    IllegalStateException closedWhileAcquiring(String name) {
        return new IllegalStateException("store " + description + " was closed while acquiring "
                + Arguments.quoted(name));
    }

    /** The session epoch now: read before an acquisition's store call, checked again at its registration. */
    long sessionEpoch() {
        return sessionLoss.get().epoch();
    }

    /**
     * Registers the hold of a grant the caller got through {@code state}'s gate ({@code placed}; or outside it, for a
     * semaphore limit the threads there do not use), from its own acquire or handed over by the previous holder,
     * requested at {@code calledAt}; a loss reported for the grant while it was in flight comes back from the
     * registration, in the same step. Then the hold is tracked for renewal, told of that loss and of a session lost
     * since its store call began ({@code sessionEpochAtCall}), and checked for close.
     */
    private Lease register(NameState state, boolean placed, LockOptions options, Thread me, Grant grant,
            long calledAt, long sessionEpochAtCall) {
        Hold hold = new Hold(grant, me, options, sessionBound(), state);
        hold.acquiredAtNanos = System.nanoTime();
        hold.leaseSet(grant.issuedAtNanos() >= 0 ? grant.issuedAtNanos() : calledAt, options.leaseTime());
        String lostEarly = state.registered(hold, placed);
        // registered, then look: a suspension or lost session reported before registration is found here, one
        // reported after it finds the hold registered
        SessionLoss loss = sessionLoss.get(); // read after the hold was registered (see Events.sessionLost)
        if (loss.epoch() != sessionEpochAtCall && !confirmedAfterSessionLoss(hold)) {
            lose(hold, loss.reason());
            releaseQuietly(hold); // in case the store still has it after all: nobody here will use it
        }
        renewals.track(hold);
        if (lostEarly != null) {
            lose(hold, lostEarly);
        }
        /*
         * Brings the just registered hold in line with the connection state. The event side sets the state before it
         * walks the registered holds, this side registers before it reads the state, so one of the two always sees the
         * other; reading again until the state stays put covers an event pair (suspended, reconnected) racing this.
         */
        for (boolean seen = suspended; ; seen = suspended) {
            if (seen) {
                hold.markUncertain();
            } else {
                hold.markCertain();
            }
            if (suspended == seen) {
                break;
            }
        }
        if (closed.get()) {
            // the close waits for this acquisition to end, so the backend is still open for the release
            lose(hold, "its store was closed", Level.DEBUG);
            releaseQuietly(hold);
            throw closedWhileAcquiring(hold.grant.name());
        }
        return new CoreLease(this, hold);
    }

    /**
     * Whether the store confirms a grant whose store call began before the backend reported a session lost: made in
     * the lost session it is gone, made in the next one (by an acquire that waited across the loss) it is held. One
     * check in the store, the renew (which, on a session-bound store, checks that the grant is held in the live
     * session); a check that fails counts as gone, the safe side.
     */
    private boolean confirmedAfterSessionLoss(Hold hold) {
        try {
            return !renewInStore(hold, List.of(new Renewal(hold.grant, hold.leaseTime()))).contains(hold.grant);
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "could not check " + hold.grant + " in " + description + " after a lost session", e);
            return false;
        }
    }

    private Lease nestedLease(String name, LockOptions options, Thread me) {
        NameState state = names.lock(name);
        Hold existing = state == null ? null : state.heldBy(me);
        if (existing == null) {
            return null;
        }
        if (!existing.options.equals(options)) {
            throw new IllegalArgumentException("lock " + Arguments.quoted(name)
                    + " is already held by this thread with "
                    + existing.options + "; a nested acquisition shares that lease and cannot use " + options
                    + ": acquire it with the same options");
        }
        /*
         * Whether the store still holds its lock: one round trip (a renewal for its current lease time on time-bound
         * stores, a check on session-bound ones), as a reentrant acquire in Redisson or Spring Integration asks the
         * store. The local state alone may still say held after an operator's force-release or a takeover, up to the
         * next renewal. Run without the caller's interrupt flag, as a release is; a hold found gone is declared lost.
         */
        if (!InterruptFlag.aside(() -> extend(existing, existing.leaseTime()))) {
            return null; // lost: the hold is marked so, and this acquisition contends in the store as a new one
        }
        return existing.nest() ? new CoreLease(this, existing) : null;
    }

    /**
     * Releases the store lock of an outermost lease, now ({@code minHeld} null) or once it has been held
     * {@code minHeld} ({@link #releaseHoldAfter}). Counted in flight from before the hold is marked released, so a
     * concurrent {@link #close()} either finds the hold active (and frees it) or waits for this release before it
     * closes the backend: closed under the store call, the release would fail and leave the lock held by nobody alive.
     */
    void releaseHold(Hold hold, Duration minHeld) {
        acquisitionsInFlight.enterRelease();
        try {
            if (minHeld == null || !releaseHoldAfter(hold, minHeld)) {
                releaseHoldNow(hold);
            }
        } finally {
            acquisitionsInFlight.exit();
        }
    }

    private void releaseHoldNow(Hold hold) {
        renewals.untrack(hold);
        if (!hold.markReleased()) {
            // lost before: still free it in the store if it is somehow ours, then report the loss
            releaseQuietly(hold);
            hold.openGate();
            throw hold.lostCause();
        }
        NameState gate = hold.permit || handOvers == null ? null : hold.gate;
        NameState.Waiter next = gate == null ? null : gate.claimForHandOver(hold);
        if (next != null) {
            handOver(hold, gate, next);
            return;
        }
        boolean stillOurs;
        boolean forOthers = gate != null && gate.streakEndsAt(hold);
        long sentAt = System.nanoTime();
        try {
            stillOurs = forOthers ? InterruptFlag.aside(() -> handOvers.releaseForOthers(hold.grant))
                    : releaseInStore(hold);
            if (forOthers) {
                gate.freedInStore(System.nanoTime() - sentAt);
            }
        } finally {
            hold.openGate();
        }
        if (!stillOurs) {
            throw lostAtRelease(hold);
        }
    }

    /**
     * Passes the store lock of a released {@code hold} to the claimed local waiter {@code next} of {@code gate} in one
     * store operation, with the waiter's lease time. The waiter always gets an outcome: the new grant, or, if the store
     * no longer had {@code hold}'s lock or could not be reached, the gate alone (it then contends in the store itself,
     * beginning a new streak). A store that refuses the waiter's options (a lease time over its limit, say), or
     * refuses the hand-over itself with a {@link LockException} other than {@link StoreUnavailableException} (a
     * fencing token that cannot grow), ran nothing: the lock is then freed as a plain release frees it, and the
     * waiter meets the same refusal at its own acquire. While the store closes no new grant may start: the lock is then
     * freed as a plain release frees it, and the waiter gets the gate alone (and finds the store closed).
     */
    private void handOver(Hold hold, NameState gate, NameState.Waiter next) {
        boolean entered = acquisitionsInFlight.enter(); // false while the store closes: no new grant may start then
        long epoch = sessionEpoch();
        long sentAt = System.nanoTime();
        Grant grant = null;
        boolean stillOurs = false;
        try {
            if (!entered) {
                stillOurs = releaseInStore(hold);
            } else {
                try {
                    Duration leaseTime = next.options.leaseTime();
                    grant = InterruptFlag.aside(() -> handOvers.handOver(hold.grant, leaseTime, next.thread));
                    stillOurs = grant != null;
                } catch (IllegalArgumentException | LockException refused) { // the waiter's options, or the hand-over
                    if (refused instanceof StoreUnavailableException) {
                        throw refused;
                    }
                    stillOurs = releaseInStore(hold);
                }
            }
        } finally {
            if (entered && grant == null) {
                acquisitionsInFlight.exit();
            } // else the waiter ends the acquisition in flight when it has registered the grant
            gate.handOut(next, grant == null ? null : new NameState.Waiter.HandOff(grant, sentAt, epoch));
        }
        if (!stillOurs) {
            throw lostAtRelease(hold);
        }
    }

    // ---- releaseAfter (Lease.releaseAfter): keep the store lock until minHeld, then let it free ----

    /**
     * How far past the {@code minHeld} time a time-bound store's expiry is set by releaseAfter: long enough that the
     * delayed release, which runs at that time on a loaded machine, still finds the lock ours and wakes its waiters
     * as a release does (with the expiry exactly at that time it loses that race whenever the thread runs late, and
     * a Redis waiter, woken only by a release that deletes the key, sleeps on: 2 of 6 Redis runs of kit rule §16.12
     * at load 12, none of 6 with this grace); if this process dies first, the lock frees this much later than
     * {@code minHeld}.
     */
    static final Duration RELEASE_AFTER_EXPIRY_GRACE = Duration.ofSeconds(1);

    /**
     * Releases an outermost lease but keeps the store lock until {@code minHeld} has passed since acquisition, then
     * releases it on a distlock thread ({@link DelayedReleases}) so waiters are woken as by any release. On
     * time-bound stores the store's expiry is also set to the time left (plus {@link #RELEASE_AFTER_EXPIRY_GRACE}),
     * in one renew, so the lock still frees if this process dies or its store is closed first; shortening the
     * expiry alone wakes nobody, and a waiter refused under the long lease would sleep until the expiry it was told.
     * This does it for every backend in one place with their own release and wake-up, rather than teaching each
     * backend's shortening (Redis scripts, SQL, permits) to publish. False, having done nothing, when no time is left
     * or the hold is lost: then a plain release.
     */
    private boolean releaseHoldAfter(Hold hold, Duration minHeld) {
        long deadline = hold.acquiredAtNanos + saturatedNanos(minHeld);
        long leftNanos = deadline - System.nanoTime();
        if (leftNanos < TimeUnit.MILLISECONDS.toNanos(1) || hold.state() == io.distlock.LeaseState.LOST
                || !hold.markReleased()) { // lost meanwhile: reported as release reports it
            return false;
        }
        renewals.untrack(hold);
        if (sessionBound()) {
            delayedReleases.releaseLater(hold, leftNanos);
            hold.openGate();
            return true;
        }
        Set<Grant> lost;
        IllegalArgumentException refused = null;
        hold.claimStoreCall(); // after a renewal of this hold in flight, so the new expiry lands last
        try {
            Duration left = Duration.ofMillis((leftNanos + 999_999) / 1_000_000) // rounded up: never shorter
                    .plus(RELEASE_AFTER_EXPIRY_GRACE);
            lost = renewInStore(hold, List.of(new Renewal(hold.grant, left)));
        } catch (IllegalArgumentException refusedExpiry) {
            refused = refusedExpiry;
            lost = Set.of();
        } finally {
            hold.endStoreCall();
            if (refused == null) {
                hold.openGate();
            }
        }
        if (refused != null) {
            releaseRefusedDelay(hold, minHeld, refused);
            return true;
        }
        if (lost.contains(hold.grant)) {
            throw lostAtRelease(hold);
        }
        delayedReleases.releaseLater(hold, deadline - System.nanoTime());
        return true;
    }

    /**
     * A store refused the expiry a releaseAfter needs (a lease time over its limit, such as a Redis store's
     * {@code maxLeaseTime} with its restart guard) and ran nothing: the hold is already released here and no longer
     * renewed, so rather than leave the lock in the store until its expiry with no client able to free it, it is
     * freed now, as a plain release frees it, and the caller learns that {@code minHeld} was not kept.
     */
    private void releaseRefusedDelay(Hold hold, Duration minHeld, IllegalArgumentException refused) {
        boolean stillOurs;
        try {
            stillOurs = releaseInStore(hold);
        } finally {
            hold.openGate();
        }
        if (!stillOurs) {
            LockLostException lost = lostAtRelease(hold);
            lost.addSuppressed(refused);
            throw lost;
        }
        throw new IllegalArgumentException("releaseAfter(" + minHeld + ") of " + Arguments.quoted(hold.grant.name())
                + " needs an"
                + " expiry the store refuses, so the lock was released now instead: " + refused.getMessage(), refused);
    }

    /** What a release that found the store lock gone throws: the hold is marked lost and its listeners told. */
    private static LockLostException lostAtRelease(Hold hold) {
        hold.markLostAtRelease("the store no longer had it at release: it expired or was taken over while held");
        return hold.lostCause();
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE / 4;
        }
    }

    /**
     * Renews one lease now (time-bound stores) or checks in the store that it is still held (session-bound ones): one
     * round trip, ordered with the background renewal of the same hold. False if the store no longer has it.
     */
    boolean extend(Hold hold, Duration leaseTime) {
        if (!hold.isActive()) {
            return false;
        }
        hold.claimStoreCall(); // waits for a renewal of this hold in flight, so the store applies them in this order
        try {
            if (!hold.isActive()) {
                return false;
            }
            long sentAt = System.nanoTime();
            List<Renewal> one = List.of(new Renewal(hold.grant, leaseTime));
            Set<Grant> lost = renewInStore(hold, one);
            if (lost.contains(hold.grant)) {
                lose(hold, hold.sessionBound ? "the store no longer had it when extend checked"
                        : "the store no longer had it when extended");
                return false;
            }
            if (!hold.sessionBound) {
                hold.leaseSet(sentAt, leaseTime);
            }
        } finally {
            hold.endStoreCall();
        }
        renewals.scheduleBy(hold.nextDeadlineNanos()); // re-plans the next tick: the deadlines moved
        return hold.isActive();
    }

    /**
     * Declares an active hold lost: tells its listeners and lets the next local waiter through. A hold released or
     * lost already is left alone: its release (or first loss) opens its gate.
     */
    void lose(Hold hold, String reason) {
        lose(hold, reason, Level.WARNING);
    }

    /** As {@link #lose(Hold, String)}, logged at {@code level}: a close is expected, an expiry is not. */
    private void lose(Hold hold, String reason, Level level) {
        if (!hold.markLost(reason)) {
            return;
        }
        LOG.log(level, "lease on {0} {1} (fencing token {2}) of store {3} lost: {4}",
                hold.permit ? "semaphore" : "lock", Arguments.quoted(hold.grant.name()),
                        Long.toString(hold.grant.fencingToken()),
                description, reason);
        renewals.untrack(hold);
        hold.openGate();
    }

    /**
     * The store's release, run without the caller's interrupt flag (store clients give up on an interrupted thread,
     * and a release must not fail because the thread was interrupted); the flag is set again afterwards.
     */
    private boolean releaseInStore(Hold hold) {
        return InterruptFlag.aside(() -> hold.permit ? permits.releasePermit(hold.grant) : backend.release(hold.grant));
    }

    /**
     * The store's renewal of one hold for extend and releaseAfter, run without the caller's interrupt flag as a release
     * is (a releaseAfter failing on an interrupted thread left its lock held by nobody until the lease's end); the
     * flag is set again afterwards.
     */
    private Set<Grant> renewInStore(Hold hold, List<Renewal> one) {
        return InterruptFlag.aside(() -> hold.permit ? permits.renewPermits(one) : backend.renew(one));
    }

    private void releaseQuietly(Hold hold) {
        try {
            releaseInStore(hold);
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "could not release " + hold.grant + " in " + description, e);
        }
    }

    void ensureOpen() {
        if (closed.get()) {
            throw new IllegalStateException("store " + description + " is closed");
        }
    }

    /** Courtesy pauses waiters took after a streak of hand-overs, before contending in the store (for tests). */
    long courtesyPauses() {
        return courtesyPauses.get();
    }

    /** Number of releaseAfter releases scheduled and not yet done (for tests: they must not be left behind). */
    int delayedReleasesPending() {
        return delayedReleases.pending();
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        closing.stop(); // acquisitions waiting in the backend stop at their next look at the wait
        // tells the backend the store closes, so its waiters look at their stopped waits now; never fails the close
        try {
            backend.closing();
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "backend of " + description + " failed to wake its waiters at close", e);
        }
        // every lease is told first; then the releases, which stop being sent after CLOSE_WAIT_SECONDS: on a store
        // that answers nothing each one waits the client's timeout, and one timeout per lease is no bound
        List<Hold> held = names.holds();
        for (Hold hold : held) {
            lose(hold, "its store was closed", Level.DEBUG);
        }
        long releasesUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(CLOSE_WAIT_SECONDS);
        int notReleased = 0;
        for (Hold hold : held) {
            if (System.nanoTime() - releasesUntil > 0) {
                notReleased++;
            } else {
                releaseQuietly(hold);
            }
        }
        if (notReleased > 0) {
            LOG.log(Level.WARNING, "{0} lease(s) of store {1} not released at close: releasing took over {2} s;"
                    + " they free at their lease time or session end", notReleased, description, CLOSE_WAIT_SECONDS);
        }
        // an acquisition whose store call runs now registers its grant, finds the store closed and releases it: the
        // backend stays open until they have (closing it under them would lose a grant with its answer)
        long left = acquisitionsInFlight.closeAndAwait(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
        if (left > 0) {
            LOG.log(Level.WARNING, "{0} acquisition(s) in store {1} still running {2} s after close began; what they"
                    + " take stays until its lease time or session ends", left, description, CLOSE_WAIT_SECONDS);
        }
        renewals.shutdown();
        delayedReleases.shutdown();
        backend.close();
    }

    @Override
    public String toString() {
        return "LockStore[" + description + "]";
    }

    /** How many sessions the backend reported lost, and the reason of the last one. */
    private record SessionLoss(long epoch, String reason) {
        static final SessionLoss NONE = new SessionLoss(0, null);
    }

    /** Connection events from session-bound backends. */
    private final class Events implements LeaseEvents {
        @Override
        public void suspended() {
            suspended = true;
            names.holds().forEach(Hold::markUncertain);
        }

        @Override
        public void reconnected() {
            suspended = false;
            names.holds().forEach(Hold::markCertain);
        }

        @Override
        public void sessionLost(String reason) {
            // the epoch moves before the holds are walked; a registration puts its hold first, then reads the epoch:
            // either the walk finds the hold or the registration finds the new epoch
            sessionLoss.updateAndGet(last -> new SessionLoss(last.epoch() + 1, reason));
            names.holds().forEach(hold -> lose(hold, reason));
        }

        @Override
        public void lost(Grant grant, String reason) {
            // the grant's lock or permit: its hold, or, while not registered yet, its loss kept for the registration
            // (the backend does not say which space; owner tokens never repeat, so looking in both is safe)
            lostIn(names.lock(grant.name()), grant, reason);
            if (permits != null) {
                lostIn(names.semaphore(grant.name()), grant, reason);
            }
        }

        private void lostIn(NameState state, Grant grant, String reason) {
            Hold hold = state == null ? null : state.lost(grant, reason);
            if (hold != null) {
                lose(hold, reason);
            }
        }
    }
}
