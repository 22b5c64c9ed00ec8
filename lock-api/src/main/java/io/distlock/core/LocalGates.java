package io.distlock.core;

import io.distlock.LockOptions;
import io.distlock.spi.Grant;
import io.distlock.spi.OthersWaiting;
import io.distlock.spi.Wait;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiFunction;

/**
 * One fair, FIFO gate per lock name inside one store: only the thread through the gate contends in the store (or
 * holds the lock), the others queue here. So many local waiters on one lock cost the store one contender, not one
 * each, and they get the lock in arrival order. The gate is not owner-bound, because a lease may be released from
 * another thread; gates are dropped when no thread uses them.
 *
 * <p>A releasing holder may {@link Gate#claimForHandOver claim} the first queued waiter and pass it the store lock
 * directly (one store operation, nothing freed in between); the waiter then leaves the queue with that grant, or,
 * if the hand-over failed, with the gate alone, to contend in the store itself. A waiter that times out or is
 * interrupted cancels with the same compare-and-set as the claim, so exactly one of the two wins.
 *
 * <p>When a streak of hand-overs reaches its bound while another client may wait, the holder frees the lock in the
 * store and the waiter it lets through first waits a short {@linkplain Waiter#courtesyNanos courtesy}
 * before it contends in the store: the other clients' waiters are only being woken by then, and would otherwise lose
 * the race to it every time. A hand-over whose store said nobody else waits ({@link OthersWaiting#NO}) lets the
 * streak go on past the bound, with no pause: nobody would take the turn.
 */
final class LocalGates {

    /**
     * Hand-overs in a row on one gate before a holder frees the lock in the store instead, when other clients may
     * wait: hand-overs never free the lock, so without a bound one client's threads could pass a contended lock among
     * themselves forever while other clients wait. Small, so another client gets a chance at least every few holders;
     * large enough that most local transfers still cost one store operation.
     */
    static final int MAX_HAND_OVERS_IN_A_ROW = 8;

    /** The least courtesy after a streak: a woken thread of another client needs about this long to run. */
    static final long MIN_COURTESY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** The most courtesy after a streak: what the local waiter may lose when no other client waits. */
    static final long MAX_COURTESY_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    /** Stands for "the gate is reserved for a claimed waiter whose hold is not registered yet". */
    private static final Object RESERVED = new Object();

    private final ConcurrentHashMap<String, Gate> gates = new ConcurrentHashMap<>();

    /**
     * Counts the caller as a user of {@code name}'s gate; pair with {@link #leave}. A name nobody uses (an uncontended
     * lock) gets its new gate by a merge, which, unlike a compute, puts it without a placeholder node.
     */
    Gate enter(String name) {
        if (gates.get(name) == null) {
            return gates.merge(name, new Gate(this, name), LocalGates::join);
        }
        return gates.compute(name, joinOrMake);
    }

    /** For {@link #enter}'s compute: one user more, or a new gate; made once, as it refers to this object. */
    private final BiFunction<String, Gate, Gate> joinOrMake = (name, g) -> {
        if (g == null) {
            return new Gate(this, name);
        }
        g.users++;
        return g;
    };

    /** A user more for the gate in use; the one made for the merge is dropped. */
    private static Gate join(Gate inUse, Gate unused) {
        inUse.users++;
        return inUse;
    }

    /** Stops counting the caller as a user of {@code name}'s gate. */
    void leave(String name) {
        gates.compute(name, (k, g) -> g == null || --g.users == 0 ? null : g);
    }

    /** {@code name}'s gate if one is in use, else null. */
    Gate gate(String name) {
        return gates.get(name);
    }

    /**
     * Passes {@code gate} within {@code wait}: blocks without limit, tries once, or waits until the deadline.
     *
     * @return whether the caller got through
     */
    static boolean pass(Semaphore gate, Wait wait) throws InterruptedException {
        if (wait.isForever()) {
            gate.acquire();
            return true;
        }
        if (wait.isNone()) {
            return gate.tryAcquire();
        }
        return gate.tryAcquire(wait.remainingNanos(), TimeUnit.NANOSECONDS);
    }

    /** Number of names with a gate in use (for tests: gates must not leak). */
    int size() {
        return gates.size();
    }

    /** Number of waiters queued at every gate (for tests: cancelled waiters must not stay queued). */
    int queued() {
        int n = 0;
        for (Map.Entry<String, Gate> e : gates.entrySet()) {
            Gate g = e.getValue();
            g.lock.lock();
            try {
                n += g.queue == null ? 0 : g.queue.size();
            } finally {
                g.lock.unlock();
            }
        }
        return n;
    }

    /**
     * A store lock handed over to a waiter: the grant, when its request was sent, and the store's session epoch read
     * before it was sent (a session lost since then loses the grant at registration).
     */
    record HandOff(Grant grant, long sentAtNanos, long sessionEpoch) {
        /** A hand-over sent while the store had reported no lost session. */
        HandOff(Grant grant, long sentAtNanos) {
            this(grant, sentAtNanos, 0);
        }
    }

    /**
     * A name's gate: who is through it (a hold, a contender or a claimed waiter), and who queues behind. It is also
     * the {@link Hold.Exit} of the holds through it: opening one lets the next waiter through and stops its use.
     */
    static final class Gate implements Hold.Exit {
        private final LocalGates gates;
        private final String name;
        private final ReentrantLock lock = new ReentrantLock();
        /** Made by the first thread that has to queue: most gates never have one (an uncontended hold). */
        private ArrayDeque<Waiter> queue;
        /** Whether a thread is through the gate. Guarded by {@link #lock}. */
        private boolean taken;
        /** The registered hold through the gate, {@link #RESERVED} during a hand-over, else null. */
        private Object holder;
        private int handOversInARow;
        /** The courtesy the next waiter let through waits before contending in the store, 0 for none. */
        private long courtesyNanos;
        int users = 1; // its maker; guarded by the map's atomic updates of the gate's key

        private Gate(LocalGates gates, String name) {
            this.gates = gates;
            this.name = name;
        }

        /** {@code hold} was released or lost: the next waiter may pass, and the hold no longer uses the gate. */
        @Override
        public void opened(Hold hold) {
            if (open(hold)) {
                gates.leave(name);
            }
        }

        /**
         * Passes the gate within {@code wait}, queueing with {@code options} (whose lease time a hand-over uses).
         *
         * @return the caller's waiter when it got through ({@link Waiter#handOff()} says whether with a store lock
         *         already), or null if it did not get through in time
         * @throws InterruptedException if interrupted while queued and no hand-over had claimed it yet
         */
        Waiter pass(LockOptions options, Wait wait) throws InterruptedException {
            Waiter me;
            lock.lock();
            try {
                if (!taken && (queue == null || queue.isEmpty())) {
                    taken = true;
                    holder = null;
                    return Waiter.PASSED_AT_ONCE;
                }
                if (wait.isNone()) {
                    return null;
                }
                me = new Waiter(options, Thread.currentThread());
                if (queue == null) {
                    queue = new ArrayDeque<>(4);
                }
                queue.addLast(me);
            } finally {
                lock.unlock();
            }
            boolean interrupted = false;
            while (me.state.get() == Waiter.WAITING) {
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
            if (me.state.compareAndSet(Waiter.WAITING, Waiter.CANCELLED)) {
                lock.lock();
                try {
                    queue.remove(me);
                } finally {
                    lock.unlock();
                }
                if (interrupted) {
                    throw new InterruptedException("interrupted while queued for a lock");
                }
                return null;
            }
            // passed or claimed: a claim's hand-over is in flight, and its store lock must not be left behind
            while (me.state.get() != Waiter.PASSED) {
                LockSupport.park(this);
                if (Thread.interrupted()) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt(); // taken the gate (and any store lock): the flag stays for the caller
            }
            return me;
        }

        /** The thread through the gate registered {@code hold}: its release may hand over or open the gate. */
        void held(Hold hold) {
            lock.lock();
            try {
                holder = hold;
            } finally {
                lock.unlock();
            }
        }

        /**
         * Lets the next waiter through if {@code hold} is still the one through the gate; false if the gate had been
         * passed on already (the call is then a no-op, so a hold opens its gate at most once).
         */
        boolean open(Hold hold) {
            lock.lock();
            try {
                if (holder != hold) {
                    return false;
                }
                passOn();
                return true;
            } finally {
                lock.unlock();
            }
        }

        /**
         * Whether {@code hold}, still through the gate, ends a streak of hand-overs with its release: it then frees
         * the lock {@linkplain io.distlock.spi.HandOvers#releaseForOthers for other clients}.
         */
        boolean streakEndsAt(Hold hold) {
            lock.lock();
            try {
                return holder == hold && streakEnds(hold);
            } finally {
                lock.unlock();
            }
        }

        /**
         * Notes that {@code hold} freed its lock in the store in {@code releaseNanos}, before it {@link #open opens}
         * the gate: if that {@linkplain #streakEnds ended} a streak of hand-overs, the next waiter waits about two
         * such store round trips (within {@link #MIN_COURTESY_NANOS} and {@link #MAX_COURTESY_NANOS}) before
         * contending, which gives another client's waiter, woken by this release, time to take the lock first.
         */
        void freedInStore(Hold hold, long releaseNanos) {
            lock.lock();
            try {
                if (holder == hold && streakEnds(hold)) {
                    courtesyNanos = Math.max(MIN_COURTESY_NANOS, Math.min(MAX_COURTESY_NANOS, 2 * releaseNanos));
                }
            } finally {
                lock.unlock();
            }
        }

        /** Lets the next waiter through after a caller that got through without a hold (its acquire failed). */
        void openUnheld() {
            lock.lock();
            try {
                passOn();
            } finally {
                lock.unlock();
            }
        }

        /**
         * Whether {@code hold}'s release ends the streak of hand-overs: the bound is reached and, by what the store
         * said when it granted the hold's lock, another client may wait. The caller holds {@link #lock}.
         */
        private boolean streakEnds(Hold hold) {
            return handOversInARow >= MAX_HAND_OVERS_IN_A_ROW && hold.grant.othersWaiting().mayWait();
        }

        /** The first queued waiter, taken off the queue, or null; the caller holds {@link #lock}. */
        private Waiter pollQueued() {
            return queue == null ? null : queue.pollFirst();
        }

        private void passOn() {
            long courtesy = courtesyNanos;
            courtesyNanos = 0;
            handOversInARow = 0;
            holder = null;
            for (Waiter w; (w = pollQueued()) != null; ) {
                w.courtesyNanos = courtesy; // before the state's write, which publishes it (unused if cancelled)
                if (w.state.compareAndSet(Waiter.WAITING, Waiter.PASSED)) {
                    LockSupport.unpark(w.thread);
                    return;
                }
            }
            taken = false;
        }

        /**
         * Claims the first queued waiter for a hand-over of {@code hold}'s store lock, if {@code hold} is the one
         * through the gate, a waiter is queued and the streak does not {@linkplain #streakEnds end}. The gate is then
         * reserved for that waiter: {@link #open(Hold)} of {@code hold} no longer opens it; the caller must
         * {@link #handOut hand} the claimed waiter an outcome, whatever happens.
         *
         * @return the claimed waiter, or null for a plain release
         */
        Waiter claimForHandOver(Hold hold) {
            lock.lock();
            try {
                if (holder != hold || streakEnds(hold)) {
                    return null;
                }
                for (Waiter w; (w = pollQueued()) != null; ) {
                    if (w.state.compareAndSet(Waiter.WAITING, Waiter.CLAIMED)) {
                        // stops at the bound: a streak nobody else waits for goes on without end, and must not wrap
                        if (handOversInARow < MAX_HAND_OVERS_IN_A_ROW) {
                            handOversInARow++;
                        }
                        holder = RESERVED;
                        return w;
                    }
                }
                return null;
            } finally {
                lock.unlock();
            }
        }

        /**
         * Gives the {@link #claimForHandOver claimed} waiter {@code w} its outcome and wakes it. Without a hand-over
         * ({@code null}) it takes the lock in the store itself, which begins a new streak: the hand-overs counted so
         * far no longer bound its release.
         */
        void handOut(Waiter w, HandOff outcome) {
            if (outcome == null) {
                lock.lock();
                try {
                    handOversInARow = 0;
                } finally {
                    lock.unlock();
                }
            }
            w.receive(outcome);
        }
    }

    /** One thread queued at (or through) a gate, with the options it asked for and the outcome it leaves with. */
    static final class Waiter {
        static final int WAITING = 0;
        static final int CLAIMED = 1;
        static final int PASSED = 2;
        static final int CANCELLED = 3;

        final LockOptions options;
        private final Thread thread;
        private final AtomicInteger state;
        private volatile HandOff handOff;
        /** Written before the waiter is passed (the state's write publishes it); 0 for no courtesy. */
        private long courtesyNanos;

        private Waiter(LockOptions options, Thread thread) {
            this.options = options;
            this.thread = thread;
            this.state = new AtomicInteger(WAITING);
        }

        /**
         * The outcome of every pass of a free gate: through at once, with no store lock handed over and no courtesy
         * to wait. One shared instance, as nothing of it is read or changed for a waiter that never queued.
         */
        static final Waiter PASSED_AT_ONCE = new Waiter(null, null);

        static {
            PASSED_AT_ONCE.state.set(PASSED);
        }

        /** The queued thread: a hand-over takes the store lock on its behalf. */
        Thread thread() {
            return thread;
        }

        /** The store lock handed over with the gate, or null: the waiter then contends in the store itself. */
        HandOff handOff() {
            return handOff;
        }

        /**
         * The courtesy this waiter was let through with, 0 for none: after a streak of hand-overs it gives another
         * client's woken waiter that long to take the freed lock first ({@link
         * io.distlock.spi.HandOvers#acquireAfterCourtesy}).
         */
        long courtesyNanos() {
            return courtesyNanos;
        }

        /** Gives a claimed waiter its outcome (a hand-over, or null: contend yourself) and wakes it. */
        private void receive(HandOff outcome) {
            handOff = outcome;
            state.set(PASSED);
            LockSupport.unpark(thread);
        }
    }
}
