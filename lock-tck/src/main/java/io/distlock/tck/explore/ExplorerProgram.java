package io.distlock.tck.explore;

import io.distlock.LeaseModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * One exploration's workload, drawn from its seed: the lease model, one or two clients (stores over one stub space),
 * one or two lock names, two or three workers each running one or two operations (locks, permits of a semaphore, a
 * leadership campaign, a ScheduledOnce), and at most one fault (a close, a session loss, a lease loss reported by the
 * store, a suspension, an exhausted fence counter, an interrupt, a late renewal answer, an operator's far-off expiry
 * or force-release) raised at a point the scheduler chooses, or once a lock is held with a local waiter. Half of the
 * seeds are {@link #focused} on one surface the random draw rarely lines up.
 *
 * @param seed the seed it was drawn from (it also seeds the scheduler's choices)
 * @param model how the stub reports leases to end
 * @param clients how many stores share the space
 * @param handOvers whether the stub hands a released lock straight to the next local waiter
 * @param workers the workers, each on one client
 * @param fault the fault raised, or {@link Fault#NONE}
 * @param faultClient the client the fault hits
 * @param faultYields how many turns the fault thread lets pass before it strikes
 * @param whileHeld whether the fault waits (at most 1.5 s) until a lock of its client is held while another worker
 *        of that client waits for it, and strikes then; a LOST or SESSION_LOST fault waits until a grant of its client
 *        is in flight (held at the after-grant point until the fault struck), a FAR_EXPIRY until 'x' is held in the
 *        store while a worker of another client waits for it, an INTERRUPT until its target worker holds a lock (and
 *        waits for the interrupt before its release)
 * @param faultWorker the worker an {@link Fault#INTERRUPT} interrupts
 */
record ExplorerProgram(long seed, LeaseModel model, int clients, boolean handOvers, List<Worker> workers, Fault fault,
        int faultClient, int faultYields, boolean whileHeld, int faultWorker) {

    /** What a worker does with the lock it is given. */
    enum Op {
        /** acquire(), release. */
        ACQUIRE,
        /** tryAcquire(), release if it got it. */
        TRY_NOW,
        /** tryAcquire(wait), release if it got it. */
        TRY_WAIT,
        /** acquire(), extend, release. */
        EXTEND,
        /** acquire(), releaseAfter(a short minimum hold). */
        RELEASE_AFTER,
        /** acquire(), a nested acquire() and its release, release. */
        NESTED,
        /** acquire() with a short lease held long enough for the background renewal, release. */
        RENEWED,
        /** acquire() with a short lease, held into its renewal, then releaseAfter(a minimum hold past the lease). */
        RENEWED_RELEASE_AFTER,
        /** acquire() asking for a lease time over the stub's limit: refused (as a waiter, refused at hand-over). */
        OVER_LIMIT,
        /** acquire(), releaseAfter(a minimum hold over the stub's lease-time limit): refused, the lock freed now. */
        RELEASE_AFTER_OVER_LIMIT,
        /** A leadership campaign on the name: wait to be elected (bounded), act for a turn, step down (close). */
        LEAD,
        /** A ScheduledOnce on the name "once" for about a period, closed; no period may begin after close. */
        ONCE,
        /** A permit of the two-permit semaphore "s" (tryAcquire(wait)), held for a turn, released. */
        PERMIT,
        /** A permit of "s", then releaseAfter(a minimum hold): it stays taken until then. */
        PERMIT_RELEASE_AFTER,
        /**
         * A call with a boundary value drawn from the seed (focus 11 only): a lease time, an extension or a
         * tryAcquire wait at {@code LockOptions.MAX_LEASE_TIME}, past it, past what nanoseconds count, or
         * {@code ChronoUnit.FOREVER}; the API refuses it with IllegalArgumentException or keeps it, and nothing
         * else may come of it.
         */
        BOUNDARY,
        /** acquire() and release, {@link #LOOP_ROUNDS} times in a row (focus 12 only): a long streak of hand-overs. */
        LOOP
    }

    /** How many rounds a {@link Op#LOOP} worker makes. */
    static final int LOOP_ROUNDS = 5;

    /** The ops the random draw picks from (the last ones only come with their focus). */
    private static final Op[] DRAWN = java.util.Arrays.copyOf(Op.values(), Op.BOUNDARY.ordinal());

    /** What goes wrong once during the run. */
    enum Fault {
        NONE,
        /** The client's store is closed. */
        CLOSE,
        /** The client's session ends in the store (its holds vanish) and the backend reports sessionLost. */
        SESSION_LOST,
        /** One held lock of the client vanishes from the store and the backend reports it lost. */
        LOST,
        /** The client's connection is suspended, then reconnected. */
        SUSPEND,
        /** An operator sets the fencing counter of 'x' to Long.MAX_VALUE: no larger token can be granted. */
        FENCE_EXHAUSTED,
        /**
         * One worker thread is interrupted; the stub's calls on an interrupted thread then fail (as Jedis and JDBC
         * drivers give up on one).
         */
        INTERRUPT,
        /**
         * The client's next renewal answer is held, after the store applied it, until the renewed lease's local
         * deadline has passed (time-bound leases only): the answer lands between the local deadline and the store's
         * expiry.
         */
        RENEW_LATE,
        /**
         * An operator sets the expiry of 'x''s holder to the farthest one (Long.MAX_VALUE ns): waiters must not spin.
         */
        FAR_EXPIRY,
        /** An operator force-releases the client's hold on a name behind its back (the core is not told). */
        TAKEOVER,
        /**
         * The client's first background renewal of 'x' is held before the store until its holder has called
         * releaseAfter (and that call returned or waits), then lands: a renewal landing after releaseAfter's expiry
         * would cut the minimum hold back to one lease time. Armed from the start; its client's leases stay
         * checked as if no fault struck.
         */
        RENEW_HELD,
        /**
         * As {@link #RENEW_HELD}, but held in the core, after the renewal saw the hold active and before it claims the
         * hold's store calls (the core's {@code CorePoints} point "renewal-claim"): releaseAfter then runs whole
         * before the renewal's claim, and a renewal that does not look at the hold again lands after it.
         */
        RENEW_HELD_AT_CLAIM
    }

    /** Whether this fault holds a background renewal back until its holder's releaseAfter. */
    static boolean holdsRenewal(Fault f) {
        return f == Fault.RENEW_HELD || f == Fault.RENEW_HELD_AT_CLAIM;
    }

    /** One operation of a worker on one name. */
    record Step(Op op, String name) {
        @Override
        public String toString() {
            return op + "(" + name + ")";
        }
    }

    /** A worker thread: the client it uses and its operations in order. */
    record Worker(int client, List<Step> steps) {
        @Override
        public String toString() {
            return "client" + client + " " + steps;
        }
    }

    /** The program of {@code seed}. */
    static ExplorerProgram of(long seed) {
        Random r = new Random(seed * 0x9E3779B97F4A7C15L + 17);
        LeaseModel model = r.nextBoolean() ? LeaseModel.TIME : LeaseModel.SESSION;
        int clients = 1 + r.nextInt(2);
        boolean handOvers = r.nextBoolean();
        List<String> names = r.nextInt(3) == 0 ? List.of("x", "y") : List.of("x");
        int workerCount = 2 + r.nextInt(2);
        List<Worker> workers = new ArrayList<>();
        Op[] ops = DRAWN;
        for (int w = 0; w < workerCount; w++) {
            List<Step> steps = new ArrayList<>();
            int stepCount = 1 + r.nextInt(2);
            for (int s = 0; s < stepCount; s++) {
                steps.add(new Step(ops[r.nextInt(ops.length)], names.get(r.nextInt(names.size()))));
            }
            workers.add(new Worker(r.nextInt(clients), List.copyOf(steps)));
        }
        Fault[] faults = model == LeaseModel.SESSION
                ? new Fault[] {Fault.NONE, Fault.CLOSE, Fault.SESSION_LOST, Fault.LOST, Fault.SUSPEND,
                    Fault.FENCE_EXHAUSTED, Fault.INTERRUPT, Fault.FAR_EXPIRY, Fault.TAKEOVER}
                : new Fault[] {Fault.NONE, Fault.CLOSE, Fault.FENCE_EXHAUSTED, Fault.INTERRUPT, Fault.RENEW_LATE,
                    Fault.FAR_EXPIRY, Fault.TAKEOVER};
        Fault fault = faults[r.nextInt(faults.length)];
        int faultClient = r.nextInt(clients);
        int faultYields = r.nextInt(6);
        boolean whileHeld = r.nextBoolean() && fault != Fault.RENEW_LATE; // a late answer needs the first renewal
        ExplorerProgram drawn = new ExplorerProgram(seed, model, clients, handOvers, List.copyOf(workers), fault,
                faultClient, faultYields, whileHeld, r.nextInt(workerCount));
        if (r.nextBoolean()) {
            return drawn.focused(r.nextInt(FOCI));
        }
        // the foci added later come from half of the unfocused seeds, drawn last: the other seeds keep their
        // programs (and the seeds DEFECTS.md names)
        return r.nextBoolean() ? drawn.focused(FOCI + r.nextInt(LATER_FOCI)) : drawn;
    }

    /** How many foci {@link #focused} knows from the first draw, and how many more from the later one. */
    static final int FOCI = 11;
    static final int LATER_FOCI = 3;

    /**
     * This program with its first workers and its fault set to one surface the random draw rarely lines up: 0 a
     * renewal answered late, 1 a force-release behind a holder before its nested acquire, 2 two leadership campaigns
     * on one name, 3 a local waiter whose lease time the store refuses at hand-over, 4 an exhausted fence counter
     * while a lock is held with a local waiter (hand-overs on), 5 an interrupted holder, 6 an operator's far-off
     * expiry with a waiter on the other client, 7 three permits of the two-permit semaphore, 8 a ScheduledOnce, 9 a
     * store-reported loss or a session loss of a grant in flight (the grant held at the after-grant point until the
     * fault struck), 10 a renewal held back (before the store, or in the core before it claims the hold's store
     * calls) until its holder's releaseAfter, another client waiting, 11 boundary values (time-bound leases, no
     * fault, the other worker holding 'x'), 12 a long streak of hand-overs: three workers of one client loop on 'x'
     * while a worker of the other client waits, and an operator's force-release behind a holder with a local waiter
     * makes one hand-over fail, 13 as 10 with the renewal held in the core before it claims the hold's store calls.
     * Half of the seeds are focused on 0-10, a quarter on 11-13 (drawn from the seed).
     */
    ExplorerProgram focused(int focus) {
        List<Worker> ws = new ArrayList<>(workers);
        int c = faultClient;
        LeaseModel m = model;
        boolean hand = handOvers;
        Fault f = fault;
        boolean held = whileHeld;
        int target = faultWorker;
        int n = clients;
        switch (focus) {
            case 0 -> {
                m = LeaseModel.TIME;
                f = Fault.RENEW_LATE;
                held = false;
                ws.set(0, first(ws.get(0), c, Op.RENEWED, "x"));
            }
            case 1 -> {
                f = Fault.TAKEOVER;
                ws.set(0, first(ws.get(0), c, Op.NESTED, "x"));
            }
            case 2 -> {
                ws.set(0, first(ws.get(0), ws.get(0).client(), Op.LEAD, "x"));
                ws.set(1, first(ws.get(1), ws.get(1).client(), Op.LEAD, "x"));
            }
            case 3 -> {
                hand = true;
                ws.set(0, first(ws.get(0), c, Op.ACQUIRE, "x"));
                ws.set(1, first(ws.get(1), c, Op.OVER_LIMIT, "x"));
            }
            case 4 -> {
                hand = true;
                f = Fault.FENCE_EXHAUSTED;
                held = true;
                ws.set(0, first(ws.get(0), c, Op.ACQUIRE, "x"));
                ws.set(1, first(ws.get(1), c, Op.ACQUIRE, "x"));
            }
            case 5 -> {
                f = Fault.INTERRUPT;
                held = true; // strikes while w0 holds 'x', which waits for it before its release
                target = 0;
                Op[] held0 = {Op.ACQUIRE, Op.RELEASE_AFTER, Op.TRY_NOW, Op.EXTEND};
                ws.set(0, first(ws.get(0), ws.get(0).client(), held0[(int) Math.floorMod(seed, held0.length)], "x"));
            }
            case 6 -> { // the waiter on the other client: a local waiter queues at the gate, not in the store
                f = Fault.FAR_EXPIRY;
                held = true; // strikes once 'x' is held and the other client's worker waits for it
                n = 2;
                c = Math.min(c, 1);
                m = LeaseModel.SESSION; // no renewal resets the operator's expiry during the half-second hold
                ws.set(0, first(ws.get(0), c, Op.RENEWED, "x"));
                ws.set(1, first(ws.get(1), 1 - c, Op.TRY_WAIT, "x"));
            }
            case 7 -> {
                ws.set(0, first(ws.get(0), ws.get(0).client(), Op.PERMIT_RELEASE_AFTER, "s"));
                ws.set(1, first(ws.get(1), ws.get(1).client(), Op.PERMIT, "s"));
            }
            case 8 -> ws.set(0, first(ws.get(0), ws.get(0).client(), Op.ONCE, "once"));
            case 9 -> { // a store-reported loss, or a session loss, of a grant in flight (granted, not yet registered)
                m = LeaseModel.SESSION;
                f = Math.floorMod(seed, 2) == 0 ? Fault.LOST : Fault.SESSION_LOST;
                held = true;
                ws.set(0, first(ws.get(0), c, Op.ACQUIRE, "x"));
            }
            case 11 -> { // boundary values, with nothing else going wrong
                m = LeaseModel.TIME; // a session-bound lease never counts its lease time on the clock
                f = Fault.NONE;
                ws.replaceAll(ExplorerProgram::withinLimit); // the stub takes any lease time in this program
                ws.set(0, first(ws.get(0), ws.get(0).client(), Op.BOUNDARY, "x"));
                ws.set(1, first(ws.get(1), ws.get(1).client(), Op.ACQUIRE, "x"));
            }
            case 12 -> { // three workers of one client take turns on 'x' by hand-over, the other client waits
                hand = true;
                n = 2;
                c = Math.min(c, 1);
                f = Fault.TAKEOVER;
                held = true;
                while (ws.size() < 3) {
                    ws.add(ws.get(0));
                }
                for (int w = 0; w < 3; w++) {
                    ws.set(w, new Worker(c, List.of(new Step(Op.LOOP, "x"))));
                }
                if (ws.size() < 4) {
                    ws.add(ws.get(0));
                }
                ws.set(3, first(ws.get(3), 1 - c, Op.TRY_WAIT, "x"));
            }
            default -> { // a renewal in flight held back until its holder's releaseAfter, another client waiting
                m = LeaseModel.TIME;
                f = focus == 13 ? Fault.RENEW_HELD_AT_CLAIM : Fault.RENEW_HELD;
                held = false;
                n = 2;
                c = Math.min(c, 1);
                ws.set(0, first(ws.get(0), c, Op.RENEWED_RELEASE_AFTER, "x"));
                ws.set(1, first(ws.get(1), 1 - c, Op.ACQUIRE, "x"));
            }
        }
        if (m == LeaseModel.TIME && (f == Fault.SESSION_LOST || f == Fault.LOST || f == Fault.SUSPEND)) {
            f = Fault.CLOSE; // session faults belong to session-bound leases
        }
        return new ExplorerProgram(seed, m, n, hand, List.copyOf(ws), f, c, faultYields, held, target);
    }

    /** {@code w} with its ops over the stub's lease-time limit replaced by their plain forms. */
    private static Worker withinLimit(Worker w) {
        return new Worker(w.client(), w.steps().stream().map(s -> switch (s.op()) {
            case OVER_LIMIT -> new Step(Op.ACQUIRE, s.name());
            case RELEASE_AFTER_OVER_LIMIT -> new Step(Op.RELEASE_AFTER, s.name());
            default -> s;
        }).toList());
    }

    /** {@code w} on {@code client} with its first step replaced by {@code op} on {@code name}. */
    private static Worker first(Worker w, int client, Op op, String name) {
        List<Step> steps = new ArrayList<>(w.steps());
        steps.set(0, new Step(op, name));
        return new Worker(client, List.copyOf(steps));
    }

    @Override
    public String toString() {
        return "seed=" + seed + " " + model + " clients=" + clients + (handOvers ? " hand-overs" : "") + " workers="
                + workers + " fault=" + fault
                + (fault == Fault.NONE ? "" : fault == Fault.INTERRUPT ? " of w" + faultWorker
                        : " on client" + faultClient)
                + (fault == Fault.NONE ? "" : whileHeld ? switch (fault) {
                    case LOST, SESSION_LOST -> " while a grant is in flight";
                    case INTERRUPT -> " while it holds a lock";
                    case FAR_EXPIRY -> " while 'x' is held with a waiter on another client";
                    default -> " while held with a waiter";
                } : " after " + faultYields + " turns");
    }
}
