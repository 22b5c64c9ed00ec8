package io.distlock.core;

import io.distlock.Arguments;
import io.distlock.LockOptions;
import io.distlock.spi.Grant;
import io.distlock.spi.OthersWaiting;
import io.distlock.spi.Wait;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Everything a store keeps locally about one name, a lock (limit 1) or a semaphore (a limit of permits) alike: the
 * threads through its gate, at most {@code limit} (contending in the store, holding, or receiving a hand-over), the
 * FIFO queue behind them, its registered holds, its acquisitions in flight with the losses reported for their
 * grants meanwhile, and the streak of hand-overs. Only the threads through the gate contend in the store, so many
 * local waiters cost the store at most {@code limit} contenders, and they get the name in arrival order.
 *
 * <p>Each change is one method, run under the name's lock, so the rules between them are code:
 * <pre>
 *   free/queued --{@link #pass}--&gt; through --{@link #begin}--&gt; in flight --{@link #registered}--&gt; held
 *   through, in flight --{@link #failed}--&gt; (the next waiter through)
 *   held --{@link #opened} (released or lost)--&gt; (the next waiter through)
 *   held --{@link #claimForHandOver}--&gt; handing over --{@link #handOut}--&gt; the claimed waiter through
 *   a loss reported by the backend --{@link #lost}--&gt; the hold to lose, or kept for the grant in flight
 * </pre>
 *
 * <p>A releasing holder of a lock may claim the first queued waiter and pass it the store lock directly (one store
 * operation, nothing freed in between). When a streak of hand-overs reaches {@link #MAX_HAND_OVERS_IN_A_ROW} while
 * another client may wait, the holder frees the lock in the store instead and the waiter it lets through first waits
 * a short courtesy before it contends: other clients' waiters are only being woken then, and would otherwise lose
 * the race to it every time. A hand-over whose store said nobody else waits ({@link OthersWaiting#NO}) lets the
 * streak go on past the bound, with no pause: nobody would take the turn.
 */
final class NameState {

    /**
     * Hand-overs in a row before a holder frees the lock in the store instead, when other clients may wait: without
     * a bound one client's threads could pass a contended lock among themselves forever. Small, so another client gets
     * a chance at least every few holders; large enough that most local transfers still cost one store operation.
     */
    static final int MAX_HAND_OVERS_IN_A_ROW = 8;

    /** The least courtesy after a streak: a woken thread of another client needs about this long to run. */
    static final long MIN_COURTESY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** The most courtesy after a streak: what the local waiter may lose when no other client waits. */
    static final long MAX_COURTESY_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private final Names names;
    /**
     * The name's key in {@link Names}: the name itself for a lock, a {@link Names.PermitKey} for a semaphore (so the
     * key alone says both, {@link #name()} and {@link #isPermit()}).
     */
    final Object key;
    private final ReentrantLock lock = new ReentrantLock();
    /** The places of the gate: 1 for a lock; a semaphore's limit, taken from its users while any is here. */
    private int limit;
    /**
     * Holds of a semaphore acquired stating another limit than {@link #limit} (they took no place): made by the first.
     * The store decides on such an acquire, as it refuses a limit its holders did not record.
     */
    private List<Hold> outside;
    /** Threads through the gate: contending, holding, or claimed for a hand-over. */
    private int through;
    /** Made by the first thread that has to queue: most names never have one (an uncontended hold). */
    private ArrayDeque<Waiter> queue;
    /**
     * The registered holds through the gate, at most {@link #limit}: the first in a field of its own (a lock's only
     * one), the others of a semaphore in a list made by the second. Many names are held at once, each by one hold.
     */
    private Hold held;
    private List<Hold> moreHeld;
    /** Acquisitions whose store call runs or whose grant is not registered yet. */
    private int inFlight;
    /** Losses the backend reported for grants of acquisitions in flight, by owner token; made by the first. */
    private HashMap<String, String> lossesInFlight;
    private int handOversInARow;
    /** The courtesy the next waiter let through waits before contending in the store, 0 for none. */
    private long courtesyNanos;
    /** Threads and holds using this state; guarded by the map's atomic updates of {@link #key}. */
    int users = 1;

    NameState(Names names, Object key) {
        this.names = names;
        this.key = key;
        this.limit = 1;
    }

    /** The lock's or semaphore's name. */
    String name() {
        return key instanceof Names.PermitKey p ? p.name() : (String) key;
    }

    /** Whether this is a semaphore's state (permits) rather than a lock's. */
    boolean isPermit() {
        return key instanceof Names.PermitKey;
    }

    /**
     * Passes the gate within {@code wait} with {@code options} (whose lease time a hand-over uses): at once if a place
     * is free and nobody queues, else in arrival order.
     *
     * <p>A semaphore's caller stating another limit than the threads through the gate gets {@link Waiter#OUTSIDE}
     * while one of them holds (the store, whose holders recorded the other limit, refuses it at once naming both), or
     * when it makes one attempt that does not wait: it takes no place and asks the store. Otherwise (they only
     * contend) it queues until none is through, and the name takes its limit.
     *
     * @param limit the places a semaphore's caller states (1 for a lock)
     * @return the caller's waiter when it got through ({@link Waiter#handOff()} says whether with a store lock
     *         already), or null if it did not get through in time
     * @throws InterruptedException if interrupted while queued and no hand-over had claimed it yet
     */
    Waiter pass(int limit, LockOptions options, Wait wait) throws InterruptedException {
        Waiter me;
        lock.lock();
        try {
            if ((queue == null || queue.isEmpty()) && mayPass(limit)) {
                take(limit);
                return Waiter.PASSED_AT_ONCE;
            }
            if (limit != this.limit && (wait.isNone() || held != null)) {
                return Waiter.OUTSIDE;
            }
            if (wait.isNone()) {
                return null;
            }
            me = new Waiter(limit, options, Thread.currentThread(), Waiter.WAITING);
            if (queue == null) {
                queue = new ArrayDeque<>(4);
            }
            queue.addLast(me);
        } finally {
            lock.unlock();
        }
        boolean passed = false;
        try {
            passed = me.await(wait);
        } catch (InterruptedException e) {
            throw new InterruptedException("interrupted while queued for " + (isPermit()
                    ? "a permit of semaphore " + Arguments.quoted(name()) : "lock " + Arguments.quoted(name())));
        } finally {
            if (!passed) { // gave up, or interrupted: not left queued, nor in the way of those behind
                change(() -> {
                    queue.remove(me);
                    admit(0);
                });
            }
        }
        return passed ? me : null;
    }

    /** A thread through the gate begins a store call whose grant it will register (or fail with). */
    void begin() {
        change(() -> inFlight++);
    }

    /**
     * A thread through the gate ({@code placed}) or {@link Waiter#OUTSIDE} it got no hold: its store call, if
     * {@code begun}, is over, and a place it took passes on.
     */
    void failed(boolean begun, boolean placed) {
        change(() -> {
            if (begun) {
                endFlight(null);
            }
            if (placed) {
                passOn();
            }
        });
    }

    /**
     * The thread through the gate registered {@code hold}: it is held here, its acquisition is no longer in flight,
     * and a loss the backend reported for its grant meanwhile is returned (or null), for the caller to apply.
     */
    String registered(Hold hold, boolean placed) {
        return locked(() -> {
            if (!placed) {
                outside = added(outside, hold, 1);
            } else if (held == null) {
                held = hold;
            } else {
                moreHeld = added(moreHeld, hold, 2);
            }
            return endFlight(hold.grant.ownerToken());
        });
    }

    /**
     * The backend reported {@code grant} lost: its registered hold, for the caller to lose, or null. A grant not
     * registered yet while an acquisition is in flight has its loss kept until {@link #registered} returns it.
     */
    Hold lost(Grant grant, String reason) {
        return locked(() -> {
            Hold hold = find(h -> h.grant.ownerToken().equals(grant.ownerToken()));
            if (hold != null) {
                return hold;
            }
            if (inFlight > 0) {
                if (lossesInFlight == null) {
                    lossesInFlight = new HashMap<>(2);
                }
                lossesInFlight.putIfAbsent(grant.ownerToken(), reason);
            }
            return null;
        });
    }

    /** The active hold of {@code owner}, or null: a nested acquisition shares it (a lock's; none is outside). */
    Hold heldBy(Thread owner) {
        return locked(() -> find(h -> h.owner == owner && h.isActive()));
    }

    /** The registered holds still active, copied (for the walks of connection events and close). */
    void addHoldsTo(List<Hold> all) {
        change(() -> find(h -> {
            if (h.isActive()) {
                all.add(h);
            }
            return false; // visits every hold
        }));
    }

    /** The first registered hold, through the gate or outside it, that {@code match} takes, or null. Under lock. */
    private Hold find(Predicate<Hold> match) {
        if (held != null && match.test(held)) {
            return held;
        }
        Hold found = find(moreHeld, match);
        return found != null ? found : find(outside, match);
    }

    private static Hold find(List<Hold> holds, Predicate<Hold> match) {
        if (holds != null) {
            for (Hold hold : holds) {
                if (match.test(hold)) {
                    return hold;
                }
            }
        }
        return null;
    }

    /**
     * {@code hold} was released or lost: the next waiter may pass, and the hold no longer uses this state. Called
     * once per hold, by {@link Hold#openGate}.
     */
    void opened(Hold hold) {
        boolean wasHeld = locked(() -> {
            if (removeHeld(hold)) {
                passOn();
                return true;
            }
            if (outside != null && outside.remove(hold)) { // took no place: nothing to pass on
                if (outside.isEmpty()) {
                    outside = null;
                }
                return true;
            }
            return false;
        });
        if (wasHeld) {
            names.leave(this);
        }
    }

    /**
     * Whether {@code hold}, still held here, ends a streak of hand-overs with its release: it then frees the lock
     * {@linkplain io.distlock.spi.HandOvers#releaseForOthers for other clients}.
     */
    boolean streakEndsAt(Hold hold) {
        return locked(() -> isHeld(hold) && streakEnds(hold));
    }

    /**
     * Notes that the hold whose release ends a streak of hand-overs ({@link #streakEndsAt}) freed its lock in the store
     * in {@code releaseNanos}, before it {@link #opened opens}: the next waiter waits about two such round trips
     * (within {@link #MIN_COURTESY_NANOS} and {@link #MAX_COURTESY_NANOS}) before contending, which gives another
     * client's waiter, woken by this release, time to take the lock first. The streak cannot change in between: the
     * releasing hold is the lock's one thread through the gate, and only its own opening lets another through.
     */
    void freedInStore(long releaseNanos) {
        change(() -> courtesyNanos = Math.max(MIN_COURTESY_NANOS, Math.min(MAX_COURTESY_NANOS, 2 * releaseNanos)));
    }

    /**
     * Claims the first queued waiter for a hand-over of {@code hold}'s store lock, if {@code hold} is held here, a
     * waiter is queued and the streak does not end. The hold then leaves (its {@link #opened} does nothing more) and
     * the claimed waiter has its place and an acquisition in flight: the caller must {@link #handOut} it an outcome,
     * whatever happens.
     *
     * @return the claimed waiter, or null for a plain release
     */
    Waiter claimForHandOver(Hold hold) {
        return locked(() -> {
            if (!isHeld(hold) || streakEnds(hold)) {
                return null;
            }
            for (Waiter w; queue != null && (w = queue.pollFirst()) != null; ) {
                if (w.claim()) {
                    // stops at the bound: a streak nobody else waits for goes on without end, and must not wrap
                    if (handOversInARow < MAX_HAND_OVERS_IN_A_ROW) {
                        handOversInARow++;
                    }
                    removeHeld(hold);
                    inFlight++;
                    return w;
                }
            }
            return null;
        });
    }

    /**
     * Gives the {@link #claimForHandOver claimed} waiter {@code w} its outcome and wakes it. Without a hand-over
     * ({@code null}) its acquisition in flight ends and it takes the lock in the store itself, which begins a new
     * streak. Then the releasing hold's use of this state ends.
     */
    void handOut(Waiter w, Waiter.HandOff outcome) {
        if (outcome == null) {
            change(() -> {
                handOversInARow = 0;
                endFlight(null);
            });
        }
        w.receive(outcome);
        names.leave(this);
    }

    /** Number of threads queued (for tests: waiters that gave up must not stay queued). */
    int queued() {
        return locked(() -> queue == null ? 0 : queue.size());
    }

    /** Number of losses kept for grants not registered yet (for tests: they must not pile up). */
    int lossesKept() {
        return locked(() -> lossesInFlight == null ? 0 : lossesInFlight.size());
    }

    /** Runs {@code step} under the name's lock, where every change of this state happens. */
    private <T> T locked(Supplier<T> step) {
        lock.lock();
        try {
            return step.get();
        } finally {
            lock.unlock();
        }
    }

    /** As {@link #locked}, for a step that returns nothing. */
    private void change(Runnable step) {
        lock.lock();
        try {
            step.run();
        } finally {
            lock.unlock();
        }
    }

    /** Whether {@code hold} is registered through the gate. Under lock. */
    private boolean isHeld(Hold hold) {
        return held == hold || moreHeld != null && moreHeld.contains(hold);
    }

    /** {@code holds} with {@code hold} added; made with room for {@code room} if null (most names need none). */
    private static List<Hold> added(List<Hold> holds, Hold hold, int room) {
        List<Hold> list = holds == null ? new ArrayList<>(room) : holds;
        list.add(hold);
        return list;
    }

    /** Takes {@code hold} out of those registered through the gate; false if it was not there. Under lock. */
    private boolean removeHeld(Hold hold) {
        if (held == hold) {
            held = moreHeld == null ? null : moreHeld.remove(moreHeld.size() - 1);
        } else if (moreHeld == null || !moreHeld.remove(hold)) {
            return false;
        }
        if (moreHeld != null && moreHeld.isEmpty()) {
            moreHeld = null;
        }
        return true;
    }

    /** One acquisition in flight less; returns the loss kept for {@code ownerToken} (null for none). Under lock. */
    private String endFlight(String ownerToken) {
        inFlight--;
        String lost = ownerToken == null || lossesInFlight == null ? null : lossesInFlight.remove(ownerToken);
        if (inFlight == 0) {
            lossesInFlight = null;
        }
        return lost;
    }

    /**
     * Whether {@code hold}'s release ends the streak of hand-overs: the bound is reached and, by what the store said
     * when it granted the hold's lock, another client may wait. Under lock.
     */
    private boolean streakEnds(Hold hold) {
        return handOversInARow >= MAX_HAND_OVERS_IN_A_ROW && hold.grant.othersWaiting().mayWait();
    }

    /** A place is free: queued waiters pass as {@link #admit} allows, the first with any courtesy due. Under lock. */
    private void passOn() {
        long courtesy = courtesyNanos;
        courtesyNanos = 0;
        handOversInARow = 0;
        through--;
        admit(courtesy);
    }

    /**
     * Lets queued waiters through in arrival order while a place is free for the first one's limit; the first let
     * through waits {@code courtesy} before contending. Under lock.
     */
    private void admit(long courtesy) {
        for (Waiter w; queue != null && (w = queue.peekFirst()) != null; ) {
            if (w.gaveUp()) {
                queue.pollFirst();
                continue;
            }
            if (!mayPass(w.limit)) {
                return;
            }
            queue.pollFirst();
            if (w.pass(courtesy)) {
                take(w.limit);
                courtesy = 0;
            }
        }
    }

    /** Whether a thread stating {@code limit} may take a place now: none is through, or one of its limit is free. */
    private boolean mayPass(int limit) {
        return through == 0 || limit == this.limit && through < limit;
    }

    /** A thread stating {@code limit} takes a place; the first through sets the name's limit. Under lock. */
    private void take(int limit) {
        if (through == 0) {
            this.limit = limit;
        }
        through++;
    }

    /**
     * One thread queued at the gate, with the options it asked for and the outcome it leaves with. A waiter that
     * times out or is interrupted cancels with the same compare-and-set as a pass or a hand-over's claim, so exactly
     * one of them wins.
     */
    static final class Waiter {

        private static final int WAITING = 0;
        private static final int CLAIMED = 1;
        private static final int PASSED = 2;
        private static final int CANCELLED = 3;

        /** The limit its caller stated (1 for a lock). */
        final int limit;
        final LockOptions options;
        /** The queued thread: a hand-over takes the store lock on its behalf. */
        final Thread thread;
        private final AtomicInteger state;
        private volatile HandOff handOff;
        /** Written before the waiter is passed (the state's write publishes it); 0 for no courtesy. */
        private long courtesyNanos;

        Waiter(int limit, LockOptions options, Thread thread, int state) {
            this.limit = limit;
            this.options = options;
            this.thread = thread;
            this.state = new AtomicInteger(state);
        }

        /**
         * The outcome of every pass of a free gate: through at once, with no store lock handed over and no courtesy to
         * wait. One shared instance, as nothing of it is read or changed for a waiter that never queued.
         */
        static final Waiter PASSED_AT_ONCE = new Waiter(0, null, null, PASSED);

        /** The outcome of a pass stating another semaphore limit than the threads there: no place, ask the store. */
        static final Waiter OUTSIDE = new Waiter(0, null, null, PASSED);

        /**
         * A store lock handed over to a waiter: the grant, when its request was sent, and the store's session epoch
         * read before it was sent (a session lost since then loses the grant at registration).
         */
        record HandOff(Grant grant, long sentAtNanos, long sessionEpoch) {
        }

        /**
         * Waits, queued, until passed or claimed, or until {@code wait} ends or the thread is interrupted. A claimed
         * waiter waits on for its outcome (a hand-over's store lock must not be left behind), keeping a late interrupt
         * in its flag.
         *
         * @return true if passed; false if it gave up (the caller takes it off the queue)
         * @throws InterruptedException if interrupted while nothing had passed or claimed it yet
         */
        boolean await(Wait wait) throws InterruptedException {
            boolean interrupted = false;
            while (state.get() == WAITING) {
                if (Thread.interrupted()) {
                    interrupted = true;
                    break;
                }
                if (wait.isForever()) {
                    LockSupport.park(this);
                } else {
                    long left = wait.remainingNanos();
                    if (left <= 0) {
                        break;
                    }
                    LockSupport.parkNanos(this, left);
                }
            }
            if (state.compareAndSet(WAITING, CANCELLED)) {
                if (interrupted) {
                    throw new InterruptedException("interrupted while queued");
                }
                return false;
            }
            while (state.get() != PASSED) {
                LockSupport.park(this);
                if (Thread.interrupted()) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt(); // through the gate (and maybe with a store lock): the flag stays
            }
            return true;
        }

        /** Lets this waiter through with {@code courtesy} to wait first; false if it had given up. */
        boolean pass(long courtesy) {
            courtesyNanos = courtesy; // before the state's write, which publishes it (unused if cancelled)
            if (state.compareAndSet(WAITING, PASSED)) {
                LockSupport.unpark(thread);
                return true;
            }
            return false;
        }

        /** Whether it gave up (timed out or interrupted) before anything passed or claimed it. */
        boolean gaveUp() {
            return state.get() == CANCELLED;
        }

        /** Claims this waiter for a hand-over; false if it had given up. */
        boolean claim() {
            return state.compareAndSet(WAITING, CLAIMED);
        }

        /** Gives a claimed waiter its outcome (a hand-over, or null: contend yourself) and wakes it. */
        void receive(HandOff outcome) {
            handOff = outcome;
            state.set(PASSED);
            LockSupport.unpark(thread);
        }

        /** The store lock handed over with the place, or null: the waiter then contends in the store itself. */
        HandOff handOff() {
            return handOff;
        }

        /**
         * The courtesy this waiter was let through with, 0 for none: after a streak of hand-overs it gives another
         * client's woken waiter that long to take the freed lock first
         * ({@link io.distlock.spi.HandOvers#acquireAfterCourtesy}).
         */
        long courtesyNanos() {
            return courtesyNanos;
        }
    }
}
