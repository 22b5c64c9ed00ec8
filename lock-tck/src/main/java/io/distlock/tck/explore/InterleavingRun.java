package io.distlock.tck.explore;

import io.distlock.DistributedLock;
import io.distlock.Leadership;
import io.distlock.LeadershipListener;
import io.distlock.Lease;
import io.distlock.LeaseModel;
import io.distlock.LeaseState;
import io.distlock.LockException;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.ScheduledOnce;
import io.distlock.DistributedSemaphore;
import io.distlock.StoreUnavailableException;
import io.distlock.spi.Grant;
import io.distlock.spi.Stores;
import io.distlock.tck.check.CriticalSection;
import io.distlock.tck.check.HistoryChecker;
import io.distlock.tck.check.HistoryReport;
import io.distlock.tck.explore.ExplorerProgram.Fault;
import io.distlock.tck.explore.ExplorerProgram.Op;
import io.distlock.tck.explore.ExplorerProgram.Step;
import io.distlock.tck.explore.ExplorerProgram.Worker;
import io.distlock.tck.stub.StubBackend;
import io.distlock.tck.stub.StubSpace;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs one {@link ExplorerProgram} on stub stores under a {@link YieldScheduler} and checks it. At every choice of
 * the scheduler: at most one valid lease per name, a valid lease is the store's holder, and no lease of a suspended
 * connection is valid; a lease lost with no fault on its client is a violation too; no more permits than the limit,
 * a permit released after a minimum hold still taken; a lease whose renewal was answered after its local deadline
 * not left in the store. As it happens: no leader elected with a term already lost, nor while another leader of the
 * name not yet told revoked still holds a valid term or released it, no ScheduledOnce period begun after close, no
 * acquire spinning (store attempts per call, and attempts made back to back with none of the backoff's wait), a
 * releaseAfter the store's limit refused leaves its lock free, a nested acquisition never shares a hold an operator
 * force-released, a store call that fails on an interrupted thread never fails a release. At the end: no fencing
 * token granted twice or out of order (the kit's {@link HistoryChecker} over the holders' sections), every wait
 * within its bound, no waiter that waited out its whole wait while the lock stood free (a lost wake-up), every
 * thread ended (none stuck), and once every worker is done and every client closed, no lock held in the store by
 * nobody alive.
 */
final class InterleavingRun {

    static final Duration LEASE = Duration.ofSeconds(10);
    /** RENEWED's lease: renewed every third, so a renewal the scheduler keeps back ~650 ms still lands in time. */
    static final Duration SHORT_LEASE = Duration.ofMillis(1000);
    static final Duration RENEWED_HOLD = Duration.ofMillis(500);
    static final Duration WAIT = Duration.ofSeconds(2);
    static final Duration MIN_HELD = Duration.ofMillis(50);
    /** The minimum hold of RENEWED_RELEASE_AFTER: longer than its lease, so a renewal landing last would cut it. */
    static final Duration LONG_MIN_HELD = Duration.ofMillis(3000);
    /** How late past minHeld a releaseAfter may free the lock, or how early another holder may enter, under load. */
    static final Duration MIN_HELD_MARGIN = Duration.ofMillis(500);
    /** What a wait may take beyond what was asked on a loaded machine (scheduler turns included). */
    static final Duration WAIT_SLACK = Duration.ofSeconds(2);
    /** How long the store may keep a lock nobody holds after the end: a releaseAfter's expiry (minHeld + 1 s). */
    static final Duration EXPIRY_ALLOWED = Duration.ofSeconds(2);
    static final Duration RUN_BOUND = Duration.ofSeconds(20);
    /**
     * The stub's lease-time limit (as Redis's maxLeaseTime with its restart guard): above every lease asked but one.
     */
    static final Duration MAX_LEASE = Duration.ofSeconds(11);
    /** The lease time of OVER_LIMIT: refused by the stub. */
    static final Duration OVER_LIMIT_LEASE = Duration.ofSeconds(20);
    /** The minimum hold of RELEASE_AFTER_OVER_LIMIT: its expiry is over the stub's limit. */
    static final Duration OVER_LIMIT_MIN_HELD = Duration.ofSeconds(12);
    /** The period of ONCE's ScheduledOnce. */
    static final Duration ONCE_PERIOD = Duration.ofMillis(200);
    /** How long after close() a ScheduledOnce period may still begin its attempt (a thread just descheduled). */
    static final Duration ONCE_CLOSE_SLACK = Duration.ofMillis(60);
    /**
     * The most store attempts one acquire call may make: a 2 s wait backing off from 2 ms to 250 ms makes about 15,
     * plus one per release signal.
     */
    static final int ATTEMPTS_BOUND = 60;
    /**
     * The most attempts of one acquire call that may follow the one before with less than {@link #QUICK_ATTEMPT} of
     * the thread's own time between them (scheduler turns left out): the backoff waits at least 1 ms, so only a
     * release signal brings one that soon. More is a waiter spinning, which the scheduler's turns would slow down
     * enough to pass {@link #ATTEMPTS_BOUND}.
     */
    static final int QUICK_ATTEMPTS_BOUND = 5;
    static final Duration QUICK_ATTEMPT = Duration.ofNanos(900_000);
    /** How long a fault waits for a lock of its client held with a local waiter before it strikes anyway. */
    static final Duration WHILE_HELD_WAIT = Duration.ofMillis(1500);
    /** The semaphore of PERMIT and PERMIT_RELEASE_AFTER, and its limit. */
    static final String SEMAPHORE = "s";
    static final int PERMITS = 2;
    /** The minimum hold of PERMIT_RELEASE_AFTER, and how long before its end the permit must surely still be taken. */
    static final Duration PERMIT_MIN_HELD = Duration.ofMillis(1000);
    static final Duration PERMIT_MIN_HELD_MARGIN = Duration.ofMillis(300);
    /**
     * BOUNDARY's values: {@link LockOptions#MAX_LEASE_TIME}, a day past it, 1,000 years, {@code Long.MAX_VALUE} ns
     * (292 years) and {@link ChronoUnit#FOREVER}; each program uses one as a lease time, an extension or a wait.
     */
    static final List<Duration> BOUNDS = List.of(LockOptions.MAX_LEASE_TIME, LockOptions.MAX_LEASE_TIME.plusDays(1),
            Duration.ofDays(365_000), Duration.ofNanos(Long.MAX_VALUE), ChronoUnit.FOREVER.getDuration());
    /**
     * The most hand-overs in a row of one client's lock while another client may wait (the core's
     * {@code NameState.MAX_HAND_OVERS_IN_A_ROW}): a streak is that long when it ends with a release for others.
     */
    static final int HAND_OVERS_IN_A_ROW = 8;
    /** The names the programs use ("once" is ONCE's). */
    static final List<String> NAMES = List.of("x", "y", "once");

    /**
     * What one run found.
     *
     * @param program the program run
     * @param violations what broke, in the order found
     * @param trace the scheduler's choices
     * @param faultHitAcquireInFlight whether the fault struck while an acquire of its client was in flight (called,
     *        not returned): the interleaving of DEFECTS.md S3-7 (close)
     * @param faultHitGrantInFlight whether the fault struck while a grant of its client was in flight (granted by
     *        the store, not yet returned to the worker): the interleaving of DEFECTS.md S3-8 (sessionLost)
     */
    record Outcome(ExplorerProgram program, List<String> violations, List<String> trace,
            boolean faultHitAcquireInFlight, boolean faultHitGrantInFlight) {
        boolean failed() {
            return !violations.isEmpty();
        }

        /**
         * The DEFECTS.md id of a defect not fixed on this branch when every violation of this run is what it breaks
         * in the interleaving it needs, else null: "S3-7" (close() during an acquire in flight leaves the lock held
         * by nobody alive), "S3-8" (LeaseEvents.sessionLost misses a grant in flight, which stays valid).
         */
        String pendingDefect() {
            return switch (program.fault()) {
                case CLOSE -> faultHitAcquireInFlight
                        && violations.stream().allMatch(v -> v.startsWith("held by nobody alive")) ? "S3-7" : null;
                case SESSION_LOST -> faultHitGrantInFlight
                        && violations.stream().allMatch(v -> v.startsWith("a valid lease the store does not"))
                        ? "S3-8" : null;
                default -> null;
            };
        }

        String report() {
            return program + (faultHitGrantInFlight ? " (struck a grant in flight)"
                    : faultHitAcquireInFlight ? " (struck an acquire in flight)" : "") + "\n  violations: "
                    + String.join("\n    ", violations) + "\n  choices: " + trace
                    + "\n  replay: InterleavingExplorer --seed " + program.seed();
        }
    }

    /** A lease a worker holds now, with the section it spans. */
    private static final class Held {
        final String worker;
        final int client;
        final Lease lease;
        final String name;
        final long fence;
        final long enterNanos = System.nanoTime();
        final AtomicLong exitNanos = new AtomicLong(Long.MAX_VALUE);
        /**
         * Whether the lease was valid when its acquire returned it: one returned already lost (a loss that struck its
         * grant in flight) never let its worker in, and spans no section.
         */
        final boolean validAtStart;
        volatile boolean releasedAfter;

        Held(String worker, int client, Lease lease) {
            this.worker = worker;
            this.client = client;
            this.lease = lease;
            this.name = lease.lockName();
            this.fence = lease.fencingToken();
            this.validAtStart = lease.isValid();
            lease.onLost(e -> exitAt(System.nanoTime()));
        }

        void exitAt(long nanos) {
            exitNanos.accumulateAndGet(nanos, Math::min);
        }
    }

    /**
     * A releaseAfter that returned normally (at {@code returnedNanos}): the lock must stay held until, and be freed
     * at, its minimum hold, or at once if the call came after it.
     */
    private record DelayedRelease(String worker, int client, String name, long fence, long enterNanos,
            Duration minHeld, long returnedNanos) {
    }

    /** A grant the stub made, and to which client. */
    private record Granted(int client, Grant grant) {
    }

    private final ExplorerProgram program;
    private final YieldScheduler scheduler;
    private final StubSpace space = StubSpace.withClockFloor();
    private final List<StubBackend> backends = new ArrayList<>();
    private final List<LockStore> stores = new ArrayList<>();
    private final Map<String, Granted> grants = new ConcurrentHashMap<>();
    private final Map<String, Held> current = new ConcurrentHashMap<>();
    private final List<CriticalSection> sections = new CopyOnWriteArrayList<>();
    private final List<DelayedRelease> delayed = new CopyOnWriteArrayList<>();
    private final Map<String, Long> lastHeldSeen = new ConcurrentHashMap<>();
    private final Set<String> violations = java.util.Collections.synchronizedSet(new LinkedHashSet<>());
    private final Set<Integer> closedClients = ConcurrentHashMap.newKeySet();
    /** Clients a fault has struck (set before it strikes): their leases may be lost. */
    private final Set<Integer> struck = ConcurrentHashMap.newKeySet();
    /** Clients whose connection is suspended now (set before the event, cleared before reconnected). */
    private final Set<Integer> suspended = ConcurrentHashMap.newKeySet();
    private final CountDownLatch never = new CountDownLatch(1);
    /** Grants the store made whose acquire has not returned them to a worker yet, by owner token. */
    private final Map<String, Granted> inFlight = new ConcurrentHashMap<>();
    private volatile boolean faultHitGrantInFlight;
    private volatile boolean faultHitAcquireInFlight;
    /** Per client, how many workers are inside an acquire call now. */
    private final AtomicIntegerArray acquiring = new AtomicIntegerArray(2);
    /** Workers inside an acquire call now: label to "client:name". */
    private final Map<String, String> waitingOn = new ConcurrentHashMap<>();
    private final Map<String, Thread> workerThreads = new ConcurrentHashMap<>();
    /** Store attempts per thread since its acquire call began, and when its last attempt began. */
    private final Map<Thread, AtomicInteger> attempts = new ConcurrentHashMap<>();
    private final Map<Thread, Long> lastAttemptAt = new ConcurrentHashMap<>();
    /** Per worker thread in an acquire call: its last attempt's time, its parked time then, and quick attempts. */
    private final Map<Thread, long[]> pace = new ConcurrentHashMap<>();
    /** RENEW_LATE: armed when the fault strikes, taken by the client's next renewal answer. */
    private final AtomicBoolean lateArmed = new AtomicBoolean();
    /** Holds whose renewal answer landed after their local deadline. */
    private final Set<Held> lateRenewed = ConcurrentHashMap.newKeySet();
    /** TAKEOVER: "name/fence" of the holds an operator force-released behind their client's back. */
    private final Set<String> broken = ConcurrentHashMap.newKeySet();
    /** Permit leases held now, by worker label; permit grants by owner token. */
    private final Map<String, Lease> permitsHeld = new ConcurrentHashMap<>();
    private final Map<String, Granted> permitGrants = new ConcurrentHashMap<>();
    /** PERMIT_RELEASE_AFTER: owner token to when its minimum hold ends (nanoTime), for clients no fault struck. */
    private final Map<String, Long> permitKeptUntil = new ConcurrentHashMap<>();
    private volatile long semaphoreFullSeen = System.nanoTime();
    /** Counted down once the fault has struck (LOST, SESSION_LOST: a grant held back at "granted" goes on then). */
    private final CountDownLatch faultStruck = new CountDownLatch(1);
    /** RENEW_HELD: the one renewal to hold back; set while it is held; the releaseAfter it waits for. */
    private final AtomicBoolean renewHoldArmed = new AtomicBoolean(true);
    private volatile boolean renewHeldNow;
    /**
     * Whether a RENEW_HELD fault has held back a renewal of its client: the hold-back may outlast the lease of a hold
     * whose worker never calls releaseAfter (X1: `--seed 5060`), so such a lease of that client may expire by the
     * fault's doing. Set before the hold-back begins.
     */
    private volatile boolean renewalHeldBack;
    private final CountDownLatch releaseAfterCalled = new CountDownLatch(1);
    private volatile Thread releaseAfterThread;
    private volatile boolean releaseAfterReturned;
    /** Per "client:name", the hand-overs in a row since the client last took the lock in the store itself. */
    private final Map<String, Integer> streaks = new ConcurrentHashMap<>();
    /** Threads whose last store call was a hand-over: the "granted" that follows it is the hand-over's. */
    private final Set<Thread> handingOver = ConcurrentHashMap.newKeySet();
    /** Leaders told elected and not yet revoked: campaign label to its term. */
    private final Map<String, Lease> acting = new ConcurrentHashMap<>();

    private InterleavingRun(ExplorerProgram program) {
        this.program = program;
        this.scheduler = new YieldScheduler(program.seed());
    }

    /** Runs the program of {@code seed}. */
    static Outcome run(long seed) throws InterruptedException {
        return new InterleavingRun(ExplorerProgram.of(seed)).run();
    }

    private Outcome run() throws InterruptedException {
        for (int c = 0; c < program.clients(); c++) {
            StubBackend backend = program.handOvers() ? StubBackend.handingOver(space) : new StubBackend(space);
            backend.leaseModel(program.model());
            if (program.workers().stream().flatMap(w -> w.steps().stream()).noneMatch(s -> s.op() == Op.BOUNDARY)) {
                backend.maxLeaseTime(MAX_LEASE); // a program with boundary values has a store that takes any
            }
            backend.permits(true);
            int client = c;
            backend.probe((b, point, name, grant) -> at(client, b, point, name, grant));
            backends.add(backend);
            stores.add(Stores.over(backend, "stub-client" + c));
        }
        if (program.fault() == Fault.RENEW_LATE) {
            struck.add(program.faultClient()); // its leases are held to their deadline: a renewal the scheduler
            // kept back past it loses them, as the late answer does
        }
        Set<Thread> actors = new LinkedHashSet<>();
        for (int w = 0; w < program.workers().size(); w++) {
            Worker worker = program.workers().get(w);
            String label = "w" + w;
            Thread t = new Thread(() -> work(label, worker), label);
            workerThreads.put(label, t);
            actors.add(t);
        }
        if (program.fault() != Fault.NONE) {
            actors.add(new Thread(this::fault, "fault"));
        }
        actors.forEach(Thread::start);
        boolean ended;
        try {
            ended = scheduler.drive(actors, this::checkHolders, System.nanoTime() + RUN_BOUND.toNanos());
        } finally {
            scheduler.finish();
        }
        if (!ended) {
            for (Thread t : actors) {
                if (t.isAlive()) {
                    StackTraceElement[] at = t.getStackTrace();
                    violations.add("stuck: " + t.getName() + " had not ended after " + RUN_BOUND.toSeconds()
                            + " s, at " + (at.length > 0 ? at[0] + " / " + (at.length > 3 ? at[3] : "") : "?"));
                }
            }
        }
        for (Thread t : actors) {
            t.join(RUN_BOUND.toMillis());
        }
        checkEnd();
        return new Outcome(program, List.copyOf(violations), scheduler.trace(),
                faultHitAcquireInFlight, faultHitGrantInFlight);
    }

    /**
     * The stub's probe: records grants, fails the calls a closed client starts (a call already sent completes, as on
     * a closed connection pool), and is the scheduler's yield point.
     */
    private void at(int client, StubBackend backend, String point, String name, Grant grant) {
        boolean afterHandOver = handingOver.remove(Thread.currentThread());
        if (point.equals("permitGranted")) {
            permitGrants.put(grant.ownerToken(), new Granted(client, grant));
        } else if (point.equals("granted")) {
            grants.put(grant.ownerToken(), new Granted(client, grant));
            inFlight.put(grant.ownerToken(), new Granted(client, grant));
            countStreak(client, name, afterHandOver);
        } else if (!point.equals("renewal-claim")) { // the core's point, not a store call
            failIfClosed(backend);
            failIfInterrupted(point, name);
        }
        if (point.equals("handOver")) {
            handingOver.add(Thread.currentThread());
        } else if (point.equals("releaseForOthers")) {
            checkStreakEnd(client, name);
        }
        if (point.equals("acquire") || point.equals("permitAcquire")) {
            attempts.computeIfAbsent(Thread.currentThread(), k -> new AtomicInteger()).incrementAndGet();
            lastAttemptAt.put(Thread.currentThread(), System.nanoTime());
        }
        if (point.equals("acquire")) {
            countQuickAttempt(Thread.currentThread());
        }
        List<Held> answeredLate = List.of();
        if (point.equals("renewed") && client == program.faultClient() && program.fault() == Fault.RENEW_LATE
                && lateArmed.compareAndSet(true, false)) {
            answeredLate = answerLate(client, name);
        }
        if (point.equals("granted") && client == program.faultClient() && program.whileHeld()
                && (program.fault() == Fault.LOST || program.fault() == Fault.SESSION_LOST)) {
            awaitQuietly(faultStruck, WHILE_HELD_WAIT); // the grant stays in flight until the loss struck
        }
        if (point.equals(program.fault() == Fault.RENEW_HELD_AT_CLAIM ? "renewal-claim" : "renew")
                && client == program.faultClient() && ExplorerProgram.holdsRenewal(program.fault())
                && name.equals("x") && !workerThreads.containsValue(Thread.currentThread())
                && renewHoldArmed.compareAndSet(true, false)) {
            holdRenewalUntilReleaseAfter();
        }
        scheduler.yieldPoint("c" + client + "." + point + "(" + name + ")");
        lateRenewed.addAll(answeredLate); // the answer reaches the core only now: until then it is not late yet
    }

    /**
     * A grant of {@code client} on {@code name}: by a hand-over it lengthens the client's streak, which may not pass
     * {@link #HAND_OVERS_IN_A_ROW} (another client may wait); taken in the store itself it begins a new one.
     */
    private void countStreak(int client, String name, boolean byHandOver) {
        String key = client + ":" + name;
        if (!byHandOver) {
            streaks.put(key, 0);
            return;
        }
        int n = streaks.merge(key, 1, Integer::sum);
        if (n > HAND_OVERS_IN_A_ROW) {
            violations.add("unfair: client" + client + " handed '" + name + "' over " + n + " times in a row since it"
                    + " took it in the store (the bound is " + HAND_OVERS_IN_A_ROW + ": another client may wait)");
        }
    }

    /**
     * A release for other clients ends a streak: only once it is {@link #HAND_OVERS_IN_A_ROW} hand-overs long (a
     * hand-over that failed, whose waiter took the lock in the store itself, begins a new streak).
     */
    private void checkStreakEnd(int client, String name) {
        int n = streaks.getOrDefault(client + ":" + name, 0);
        if (n < HAND_OVERS_IN_A_ROW) {
            violations.add("a streak ended early: client" + client + " released '" + name + "' for other clients"
                    + " after " + n + " hand-overs in a row since it took it in the store (the bound is "
                    + HAND_OVERS_IN_A_ROW + ")");
        }
    }

    /**
     * RENEW_HELD: a background renewal, before the store (RENEW_HELD_AT_CLAIM: before it claims the hold's store
     * calls, in the core), waits until its holder called releaseAfter and that call
     * returned (it wrote its expiry first: the renewal lands last) or waits (for this renewal's store call), at most
     * {@link #WHILE_HELD_WAIT} and half a second.
     */
    private void holdRenewalUntilReleaseAfter() {
        renewalHeldBack = true;
        renewHeldNow = true;
        awaitQuietly(releaseAfterCalled, WHILE_HELD_WAIT);
        long until = System.nanoTime() + Duration.ofMillis(500).toNanos();
        while (!releaseAfterReturned && System.nanoTime() - until < 0) {
            Thread t = releaseAfterThread;
            if (t != null && t.getState() == Thread.State.WAITING) {
                break; // releaseAfter waits for this renewal's store call to end
            }
            pause(Duration.ofMillis(2));
        }
        renewHeldNow = false;
    }

    /** Waits for {@code latch} at most {@code d} on a timed wait the scheduler sees; an interrupt stays set. */
    private static void awaitQuietly(CountDownLatch latch, Duration d) {
        try {
            latch.await(d.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * An attempt of a worker's acquire call: counted quick if the thread spent less than {@link #QUICK_ATTEMPT} of
     * its own time since its previous attempt (its time parked at yield points left out).
     */
    private void countQuickAttempt(Thread t) {
        long[] p = pace.get(t); // {last attempt at, parked then, quick attempts}; absent outside a worker's acquire
        if (p == null) {
            return;
        }
        long now = System.nanoTime();
        long parkedNow = scheduler.parkedNanos(t);
        if (p[0] != 0 && (now - p[0]) - (parkedNow - p[1]) < QUICK_ATTEMPT.toNanos()) {
            p[2]++;
        }
        p[0] = now;
        p[1] = parkedNow;
    }

    /** INTERRUPT: a store call on an interrupted thread fails, as Jedis and JDBC drivers give up on one. */
    private void failIfInterrupted(String point, String name) {
        if (program.fault() == Fault.INTERRUPT && Thread.currentThread().isInterrupted()) {
            throw new StoreUnavailableException("the stub client gave up on " + point + "(" + name
                    + "): the calling thread is interrupted");
        }
    }

    /**
     * RENEW_LATE: the renewal the store applied is answered only once the renewed leases of {@code name} on the
     * client are no longer valid here (their local deadline passed), and before the store's expiry.
     *
     * @return the leases lost here by then: the answer reaches the core once its thread passes its yield point
     */
    private List<Held> answerLate(int client, String name) {
        List<Held> renewed = current.values().stream().filter(h -> h.client == client && h.name.equals(name))
                .toList();
        long until = System.nanoTime() + 4 * SHORT_LEASE.toNanos();
        try {
            // until the lease clock declared them lost (past their validity they are not valid, but still HELD)
            while (renewed.stream().anyMatch(h -> h.lease.state() == LeaseState.HELD)
                    && System.nanoTime() - until < 0) {
                never.await(5, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return renewed.stream().filter(h -> h.lease.state() == LeaseState.LOST).toList();
    }

    private static void failIfClosed(StubBackend backend) {
        if (backend.isClosed()) {
            throw new IllegalStateException("the stub client is closed (its connections are gone)");
        }
    }

    // ---- workers ----

    private void work(String label, Worker worker) {
        scheduler.yieldPoint("start");
        LockStore store = stores.get(worker.client());
        for (Step step : worker.steps()) {
            try {
                step(label, worker.client(), store, step);
            } catch (LockException | IllegalStateException e) {
                boolean fenceRefused = program.fault() == Fault.FENCE_EXHAUSTED && !struck.isEmpty()
                        && String.valueOf(e.getMessage()).contains("fencing counter");
                if (!closedClients.contains(worker.client()) && !(e instanceof io.distlock.LockLostException)
                        && !fenceRefused) {
                    violations.add(label + " " + step + ": unexpected " + e);
                }
            } catch (InterruptedException e) {
                if (!interruptTarget(label)) {
                    violations.add(label + " " + step + ": interrupted");
                }
                return;
            } catch (RuntimeException e) {
                violations.add(label + " " + step + ": unexpected " + e);
            }
        }
    }

    private void step(String label, int client, LockStore store, Step step) throws InterruptedException {
        // a session-bound lease takes no expiry from releaseAfter (the core holds it locally): nothing for the limit
        Op op = step.op() == Op.RELEASE_AFTER_OVER_LIMIT && program.model() == LeaseModel.SESSION ? Op.RELEASE_AFTER
                : step.op();
        switch (op) {
            case LEAD -> {
                lead(label, client, store, step);
                return;
            }
            case ONCE -> {
                once(label, client, store);
                return;
            }
            case PERMIT, PERMIT_RELEASE_AFTER -> {
                permit(label, client, store, op);
                return;
            }
            case BOUNDARY -> {
                boundary(label, client, store, step);
                return;
            }
            case LOOP -> {
                for (int i = 0; i < ExplorerProgram.LOOP_ROUNDS; i++) {
                    try {
                        step(label, client, store, new Step(Op.ACQUIRE, step.name()));
                    } catch (io.distlock.LockLostException lostAtRelease) {
                        // force-released behind its back (TAKEOVER): the next round goes on
                    }
                }
                return;
            }
            default -> {
            }
        }
        // a session-bound store keeps a lease as long as the session; the stub ends entries by time only, so
        // session-bound programs use the long lease throughout
        boolean shortLease = (op == Op.RENEWED || op == Op.RENEWED_RELEASE_AFTER)
                && program.model() == LeaseModel.TIME;
        LockOptions options = LockOptions.defaults()
                .withLeaseTime(op == Op.OVER_LIMIT ? OVER_LIMIT_LEASE : shortLease ? SHORT_LEASE : LEASE);
        DistributedLock lock = store.lock(step.name(), options);
        Lease lease;
        boolean waits = op != Op.TRY_NOW;
        acquiring.incrementAndGet(client);
        waitingOn.put(label, client + ":" + step.name());
        AtomicInteger tries = attempts.computeIfAbsent(Thread.currentThread(), k -> new AtomicInteger());
        tries.set(0);
        long[] myPace = new long[3];
        pace.put(Thread.currentThread(), myPace);
        long start = System.nanoTime();
        Optional<Lease> got;
        try {
            if (op == Op.TRY_NOW) {
                got = lock.tryAcquire();
            } else if (op == Op.TRY_WAIT) {
                got = lock.tryAcquire(WAIT);
            } else {
                got = Optional.of(lock.acquire());
            }
        } catch (IllegalArgumentException refused) {
            if (op != Op.OVER_LIMIT) {
                throw refused;
            }
            return; // the store's limit refused the lease time asked
        } catch (StoreUnavailableException e) {
            if (waits && interruptTarget(label) && Thread.currentThread().isInterrupted()) {
                return; // the store client gave up on an interrupted waiter, as Jedis does
            }
            throw e;
        } finally {
            acquiring.decrementAndGet(client);
            waitingOn.remove(label);
            pace.remove(Thread.currentThread());
            if (tries.get() > ATTEMPTS_BOUND) {
                violations.add("busy waiting: " + label + " " + step + " made " + tries.get()
                        + " store attempts in " + Duration.ofNanos(System.nanoTime() - start));
            } else if (myPace[2] > QUICK_ATTEMPTS_BOUND) {
                violations.add("busy waiting: " + label + " " + step + " made " + myPace[2] + " of its " + tries.get()
                        + " store attempts less than " + QUICK_ATTEMPT.toNanos() / 1000 + " µs of its own time after"
                        + " the one before, in " + Duration.ofNanos(System.nanoTime() - start));
            }
        }
        if (op == Op.OVER_LIMIT && got.isPresent()) {
            violations.add(label + " " + step + ": granted a lease time over the store's limit");
        }
        if (op == Op.TRY_NOW || op == Op.TRY_WAIT) {
            Duration wait = op == Op.TRY_NOW ? Duration.ZERO : WAIT;
            long took = System.nanoTime() - start;
            if (took > wait.plus(WAIT_SLACK).toNanos()) {
                violations.add("unbounded wait: " + label + " " + step + " took " + Duration.ofNanos(took)
                        + " for a wait of " + wait);
            }
            if (got.isEmpty()) {
                checkWakeUp(label, step, wait, took);
                return;
            }
        }
        lease = got.get();
        Held held = hold(label, client, lease);
        if (program.whileHeld() && interruptTarget(label)) {
            awaitQuietly(faultStruck, WHILE_HELD_WAIT); // the interrupt strikes the holder before its release
        }
        scheduler.yieldPoint("holding");
        switch (op) {
            case EXTEND -> {
                try {
                    lease.extend(LEASE);
                } catch (StoreUnavailableException e) {
                    if (!interruptTarget(label)) {
                        throw e;
                    }
                }
                scheduler.yieldPoint("extended");
            }
            case NESTED -> nested(label, lock, held);
            case RENEWED, RENEWED_RELEASE_AFTER -> {
                if (program.fault() == Fault.RENEW_LATE && client == program.faultClient()) {
                    holdWhileValid(lease); // into the late answer: released, it would not be lost at its deadline
                } else if (ExplorerProgram.holdsRenewal(program.fault()) && client == program.faultClient()
                        && op == Op.RENEWED_RELEASE_AFTER && step.name().equals("x")) {
                    long until = System.nanoTime() + SHORT_LEASE.toNanos() * 6 / 10;
                    while (!renewHeldNow && System.nanoTime() - until < 0) { // into its renewal, held back
                        pause(Duration.ofMillis(5));
                    }
                } else {
                    pause(RENEWED_HOLD);
                }
            }
            default -> {
            }
        }
        leave(held);
        if (op == Op.RELEASE_AFTER_OVER_LIMIT) {
            held.releasedAfter = true;
            try {
                lease.releaseAfter(OVER_LIMIT_MIN_HELD);
                violations.add(label + " " + step + ": releaseAfter(" + OVER_LIMIT_MIN_HELD
                        + ") took an expiry over the store's limit");
            } catch (IllegalArgumentException refused) {
                String token = space.holderToken(held.name);
                Granted holder = token == null ? null : grants.get(token);
                if (holder != null && holder.grant().fencingToken() == held.fence) {
                    violations.add("held by nobody alive: " + label + "'s releaseAfter(" + OVER_LIMIT_MIN_HELD
                            + ") on '" + held.name + "' was refused by the store (" + refused.getMessage()
                            + ") and the lock is still held (fence " + held.fence + ") for "
                            + space.holderRemaining(held.name));
                }
            }
        } else if (op == Op.RELEASE_AFTER || op == Op.RENEWED_RELEASE_AFTER) {
            Duration minHeld = op == Op.RELEASE_AFTER ? MIN_HELD : LONG_MIN_HELD;
            held.releasedAfter = true;
            releaseAfterThread = Thread.currentThread();
            releaseAfterCalled.countDown();
            try {
                lease.releaseAfter(minHeld);
            } finally {
                releaseAfterReturned = true;
            }
            delayed.add(new DelayedRelease(label, client, held.name, held.fence, held.enterNanos, minHeld,
                    System.nanoTime()));
        } else {
            try {
                lease.release();
            } finally {
                checkReleased(label, client, held);
            }
        }
    }

    /**
     * BOUNDARY: a lease time, an extension or a tryAcquire wait (by the seed) of one of {@link #BOUNDS}. The API
     * refuses a lease time or extension over {@link LockOptions#MAX_LEASE_TIME} with IllegalArgumentException and
     * takes anything else: the lease works (held, released), a wait however long ends with the lock once the other
     * worker frees it. Any other exception is unexpected ({@link #work}).
     */
    private void boundary(String label, int client, LockStore store, Step step) throws InterruptedException {
        Duration value = BOUNDS.get((int) Math.floorMod(program.seed() / 3, BOUNDS.size()));
        boolean over = value.compareTo(LockOptions.MAX_LEASE_TIME) > 0;
        int kind = (int) Math.floorMod(program.seed(), 3);
        String what = (kind == 0 ? "a lease time of " : kind == 1 ? "extend(" : "tryAcquire(") + value;
        Lease lease;
        if (kind == 0) {
            LockOptions options;
            try {
                options = LockOptions.defaults().withLeaseTime(value);
            } catch (IllegalArgumentException refused) {
                if (!over) {
                    violations.add(label + " " + step + ": " + what + " refused: " + refused.getMessage());
                }
                return;
            }
            lease = store.lock(step.name(), options).acquire();
        } else if (kind == 1) {
            lease = store.lock(step.name(), LockOptions.defaults().withLeaseTime(LEASE)).acquire();
        } else {
            long start = System.nanoTime();
            Optional<Lease> got = store.lock(step.name(), LockOptions.defaults().withLeaseTime(LEASE))
                    .tryAcquire(value);
            if (got.isEmpty()) {
                violations.add(label + " " + step + ": " + what + ") gave up after "
                        + Duration.ofNanos(System.nanoTime() - start) + " while every holder releases");
                return;
            }
            lease = got.get();
        }
        Held held = hold(label, client, lease);
        scheduler.yieldPoint("holding");
        if (kind == 1) {
            try {
                lease.extend(value);
            } catch (IllegalArgumentException refused) {
                if (!over) {
                    violations.add(label + " " + step + ": " + what + ") refused: " + refused.getMessage());
                }
            }
            scheduler.yieldPoint("extended");
        }
        leave(held);
        try {
            lease.release();
        } finally {
            checkReleased(label, client, held);
        }
    }

    /**
     * After a release returned or threw on a client that is not closed: the store no longer holds the lock under the
     * released lease's token (a refused hand-over must not leave it held by the releaser).
     */
    private void checkReleased(String label, int client, Held held) {
        String token = space.holderToken(held.name);
        Granted holder = token == null ? null : grants.get(token);
        if (holder != null && holder.grant().fencingToken() == held.fence && !closedClients.contains(client)) {
            violations.add("held by nobody alive: " + label + " released '" + held.name + "' (fence " + held.fence
                    + ") and the store still holds it for " + space.holderRemaining(held.name));
        }
    }

    /**
     * PERMIT, PERMIT_RELEASE_AFTER: a permit of the two-permit semaphore within the wait, held for a turn, released
     * (or released after a minimum hold, which keeps it taken in the store until then). A wait that got nothing while
     * the semaphore stood below its limit for a second is a lost wake-up.
     */
    private void permit(String label, int client, LockStore store, Op op) throws InterruptedException {
        DistributedSemaphore semaphore = store.semaphore(SEMAPHORE, PERMITS,
                LockOptions.defaults().withLeaseTime(LEASE));
        long start = System.nanoTime();
        Optional<Lease> got;
        try {
            got = semaphore.tryAcquire(WAIT);
        } catch (StoreUnavailableException e) {
            if (interruptTarget(label) && Thread.currentThread().isInterrupted()) {
                return;
            }
            throw e;
        }
        long took = System.nanoTime() - start;
        if (took > WAIT.plus(WAIT_SLACK).toNanos()) {
            violations.add("unbounded wait: " + label + " " + op + " took " + Duration.ofNanos(took));
        }
        if (got.isEmpty()) {
            long freeFor = System.nanoTime() - semaphoreFullSeen;
            if (took >= WAIT.toNanos() && closedClients.isEmpty() && freeFor > Duration.ofSeconds(1).toNanos()
                    && space.permitHolders(SEMAPHORE).size() < PERMITS) {
                violations.add("lost wake-up: " + label + " " + op + " waited " + Duration.ofNanos(took)
                        + " for a permit of '" + SEMAPHORE + "' while it stood below its limit for "
                        + Duration.ofNanos(freeFor));
            }
            return;
        }
        Lease lease = got.get();
        long acquiredAt = System.nanoTime();
        lease.onLost(e -> {
            if (!struck.contains(client) && !permitKeptUntil.containsKey(tokenOfPermit(lease))) {
                violations.add("a permit lost although nothing took it: " + label + "'s permit of '" + SEMAPHORE
                        + "' (fence " + lease.fencingToken() + "): " + e.getMessage());
            }
        });
        permitsHeld.put(label, lease);
        scheduler.yieldPoint("holding-permit");
        permitsHeld.remove(label);
        if (op == Op.PERMIT_RELEASE_AFTER) {
            String token = tokenOfPermit(lease);
            if (token != null && !struck.contains(client)) {
                permitKeptUntil.put(token, acquiredAt + PERMIT_MIN_HELD.toNanos());
            }
            lease.releaseAfter(PERMIT_MIN_HELD);
        } else {
            lease.release();
        }
    }

    private String tokenOfPermit(Lease lease) {
        for (Map.Entry<String, Granted> g : permitGrants.entrySet()) {
            if (g.getValue().grant().fencingToken() == lease.fencingToken()) {
                return g.getKey();
            }
        }
        return null;
    }

    /**
     * At a choice: no more valid permits, or permits in the store, than the limit; a permit released after a minimum
     * hold still taken in the store until shortly before that hold ends.
     */
    private void checkPermits() {
        Set<String> inStore = space.permitHolders(SEMAPHORE);
        long now = System.nanoTime();
        if (inStore.size() >= PERMITS) {
            semaphoreFullSeen = now;
        }
        if (inStore.size() > PERMITS) {
            violations.add("permits over the limit: the store holds " + inStore.size() + " permits of '" + SEMAPHORE
                    + "' (limit " + PERMITS + ")");
        }
        List<Lease> valid = permitsHeld.values().stream().filter(Lease::isValid).toList();
        if (valid.size() > PERMITS) {
            violations.add("permits over the limit: " + valid.size() + " valid permits of '" + SEMAPHORE
                    + "' held at once (limit " + PERMITS + ")");
        }
        permitKeptUntil.forEach((token, until) -> {
            Granted g = permitGrants.get(token);
            if (g != null && !struck.contains(g.client()) && until - now > PERMIT_MIN_HELD_MARGIN.toNanos()
                    && !inStore.contains(token)) {
                violations.add("minHeld not kept: the permit of '" + SEMAPHORE + "' (fence "
                        + g.grant().fencingToken() + ") was freed " + Duration.ofNanos(until - now)
                        + " before its minimum hold of " + PERMIT_MIN_HELD + " ended");
                permitKeptUntil.remove(token);
            }
        });
    }

    /** Holds {@code lease} until it is declared lost here (its renewal answered late), at most four short leases. */
    private void holdWhileValid(Lease lease) {
        long until = System.nanoTime() + 4 * SHORT_LEASE.toNanos();
        while (lease.state() == LeaseState.HELD && System.nanoTime() - until < 0) {
            pause(Duration.ofMillis(20));
        }
    }

    /** Whether {@code label} is the worker an INTERRUPT fault interrupted (or will). */
    private boolean interruptTarget(String label) {
        return program.fault() == Fault.INTERRUPT && label.equals("w" + program.faultWorker());
    }

    /** Waits {@code d} on a timed wait the scheduler sees; an interrupt ends it early and stays set. */
    private void pause(Duration d) {
        try {
            never.await(d.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A nested acquire() and its release. After an operator force-released the outer hold (TAKEOVER), the nested
     * lease must not share it: the core checks the hold in the store and contends anew.
     */
    private void nested(String label, DistributedLock lock, Held held) throws InterruptedException {
        boolean brokenBefore = broken.contains(held.name + "/" + held.fence);
        Lease inner = lock.acquire();
        if (brokenBefore && inner.fencingToken() == held.fence) {
            violations.add("a nested acquisition shared a broken hold: " + label + "'s nested acquire of '"
                    + held.name + "' returned fence " + held.fence + " after an operator force-released it");
        }
        scheduler.yieldPoint("nested");
        inner.release();
    }

    /**
     * LEAD: campaigns for the name, waits (bounded) to be elected, acts for a turn, steps down. The listener tracks
     * the acting leaders: one elected while another of the name has not been told revoked and still holds a valid
     * term, or has released it (a step-down that released before revoked), is a violation (after a loss the old
     * leader may hear of it late: LeadershipListener#revoked says the fencing token protects resources then), and so
     * is one elected with a term already lost.
     */
    private void lead(String label, int client, LockStore store, Step step) throws InterruptedException {
        String me = label + "/lead";
        CountDownLatch won = new CountDownLatch(1);
        Held[] term = {null};
        LeadershipListener listener = new LeadershipListener() {
            @Override
            public void elected(Lease lease) {
                if (!lease.isValid()) {
                    violations.add("elected with a term already lost: " + me + " (fence " + lease.fencingToken()
                            + ", " + lease.state() + ")");
                }
                acting.forEach((other, otherTerm) -> {
                    // a term released before its revoked is a step-down in the wrong order, not a loss heard late
                    boolean stillActing = otherTerm.isValid() || otherTerm.state() == LeaseState.RELEASED;
                    if (otherTerm.lockName().equals(step.name()) && !other.equals(me) && stillActing) {
                        violations.add("two acting leaders of '" + step.name() + "': " + me + " elected (fence "
                                + lease.fencingToken() + ") while " + other + " had not been told revoked and its"
                                + " term (fence " + otherTerm.fencingToken() + ") was " + (otherTerm.isValid()
                                ? "still valid" : "released, not lost"));
                    }
                });
                acting.put(me, lease);
                term[0] = hold(me, client, lease);
                won.countDown();
                scheduler.yieldPoint("elected");
            }

            @Override
            public void revoked(Lease lease) {
                scheduler.yieldPoint("revoking");
                acting.remove(me);
                if (term[0] != null) {
                    leave(term[0]);
                }
            }
        };
        Leadership leadership = store.leadership(step.name(), LockOptions.defaults().withLeaseTime(LEASE), listener);
        try {
            if (won.await(WAIT.toNanos(), TimeUnit.NANOSECONDS)) {
                scheduler.yieldPoint("leading");
            }
        } finally {
            leadership.close();
        }
    }

    /**
     * ONCE: a ScheduledOnce on "once" for one and a half periods, closed; a period whose attempt begins after close()
     * returned (less a slack for a thread just descheduled) is a violation.
     */
    private void once(String label, int client, LockStore store) {
        AtomicLong closedAt = new AtomicLong();
        DistributedLock lock = store.lock("once", LockOptions.defaults().withLeaseTime(LEASE));
        ScheduledOnce schedule = ScheduledOnce.atFixedRate(lock, ONCE_PERIOD, lease -> {
            long closed = closedAt.get();
            Long began = lastAttemptAt.get(Thread.currentThread());
            if (closed != 0 && began != null && began - closed > ONCE_CLOSE_SLACK.toNanos()) {
                violations.add("work after close: " + label + "'s ScheduledOnce began a period "
                        + Duration.ofNanos(began - closed) + " after close() returned");
            }
            Held held = hold(label + "/once", client, lease);
            held.releasedAfter = true; // tryRun ends it with releaseAfter(minHeld)
            scheduler.yieldPoint("task");
            leave(held);
            return null;
        });
        try {
            pause(ONCE_PERIOD.plus(ONCE_PERIOD.dividedBy(2)));
        } finally {
            schedule.close();
            closedAt.set(System.nanoTime());
        }
        pause(ONCE_PERIOD.multipliedBy(2));
    }

    private Held hold(String label, int client, Lease lease) {
        Held held = new Held(label, client, lease);
        lease.onLost(e -> {
            // after releaseAfter the store keeps the lock by its expiry (minHeld + 1 s) until the delayed release;
            // on a loaded machine, with the scheduler holding that release back, it can come after the expiry
            boolean heldBackByTheFault = renewalHeldBack && client == program.faultClient();
            if (!struck.contains(client) && !held.releasedAfter && !heldBackByTheFault) {
                violations.add("a lease lost although nothing took it: " + label + "'s lease on '" + held.name
                        + "' (fence " + held.fence + "): " + e.getMessage());
            }
        });
        inFlight.values().removeIf(g -> g.grant().name().equals(held.name)
                && g.grant().fencingToken() == held.fence);
        current.put(label, held);
        return held;
    }

    private void leave(Held held) {
        held.exitAt(System.nanoTime());
        current.remove(held.worker, held);
        if (!held.validAtStart) {
            return;
        }
        sections.add(new CriticalSection(held.name, held.worker, held.enterNanos, held.exitNanos.get(),
                held.fence));
    }

    /** A wait that ended empty after waiting it all out, while the lock had stood free for a second: lost wake-up. */
    private void checkWakeUp(String label, Step step, Duration wait, long took) {
        if (wait.isZero() || took < wait.toNanos() || closedClients.size() > 0) {
            return;
        }
        if (space.holderToken(step.name()) != null) {
            return;
        }
        Long seen = lastHeldSeen.get(step.name());
        long freeFor = seen == null ? took : System.nanoTime() - seen;
        if (freeFor > Duration.ofSeconds(1).toNanos()) {
            violations.add("lost wake-up: " + label + " " + step + " waited " + Duration.ofNanos(took)
                    + " and got nothing, while the lock stood free for " + Duration.ofNanos(freeFor));
        }
    }

    // ---- the fault ----

    private void fault() {
        scheduler.yieldPoint("start");
        int c = program.faultClient();
        if (program.whileHeld()) {
            // polls (read-only) on timed waits the scheduler runs others through, then strikes at its own turn
            scheduler.quiet(Thread.currentThread());
            long until = System.nanoTime() + WHILE_HELD_WAIT.toNanos();
            while (!strikeNow(c) && System.nanoTime() - until < 0) {
                pause(Duration.ofMillis(2));
            }
            scheduler.yieldPoint("fault-strike");
        } else {
            for (int i = 0; i < program.faultYields(); i++) {
                scheduler.yieldPoint("fault-wait");
            }
        }
        StubBackend backend = backends.get(c);
        faultHitGrantInFlight = inFlight.values().stream().anyMatch(g -> g.client() == c);
        faultHitAcquireInFlight = acquiring.get(c) > 0;
        if (!ExplorerProgram.holdsRenewal(program.fault())) { // held back, not lost: its leases checked as untouched
            struck.add(c);
        }
        try {
            strike(c, backend);
        } finally {
            faultStruck.countDown();
        }
    }

    private void strike(int c, StubBackend backend) {
        switch (program.fault()) {
            case CLOSE -> {
                closedClients.add(c);
                stores.get(c).close();
                if (program.model() == LeaseModel.SESSION) {
                    endSession(c);
                }
            }
            case SESSION_LOST -> {
                endSession(c);
                backend.events().sessionLost("explorer: the session ended");
            }
            case LOST -> {
                List<Granted> candidates = new ArrayList<>(inFlight.values()); // a grant in flight first
                candidates.addAll(grants.values());
                for (Granted g : candidates) {
                    if (g.client() == c && space.dropHolder(g.grant().name(), g.grant().ownerToken())) {
                        backend.events().lost(g.grant(), "explorer: its node was deleted");
                        break;
                    }
                }
            }
            case SUSPEND -> {
                backend.events().suspended();
                suspended.add(c);
                scheduler.yieldPoint("suspended");
                suspended.remove(c);
                backend.events().reconnected();
            }
            case FENCE_EXHAUSTED -> exhaustFence("x");
            case INTERRUPT -> workerThreads.get("w" + program.faultWorker()).interrupt();
            case RENEW_LATE -> lateArmed.set(true);
            case FAR_EXPIRY -> space.operatorExpiry("x", Duration.ofNanos(Long.MAX_VALUE));
            case TAKEOVER -> {
                Held victim = heldWithWaiter(c);
                if (victim == null) {
                    victim = current.values().stream().filter(h -> h.client == c).findFirst().orElse(null);
                }
                if (victim != null && backend.forceRelease(victim.name, victim.fence)) {
                    broken.add(victim.name + "/" + victim.fence);
                } else if (victim == null) { // a holder on its way to its release (or hand-over) holds in the store
                    for (Granted g : grants.values()) {
                        String name = g.grant().name();
                        if (g.client() == c && g.grant().ownerToken().equals(space.holderToken(name))
                                && backend.forceRelease(name, g.grant().fencingToken())) {
                            broken.add(name + "/" + g.grant().fencingToken());
                            break;
                        }
                    }
                }
            }
            default -> {
            }
        }
    }

    /**
     * Whether a fault waiting for its moment strikes now: a LOST or SESSION_LOST fault once a grant of client
     * {@code c} is in flight (granted by the store, not yet registered), a FAR_EXPIRY fault once 'x' is held in the
     * store while a worker of another client waits for it, an INTERRUPT once its target worker holds a lock, any other
     * once a lock of {@code c} is held with a local waiter.
     */
    private boolean strikeNow(int c) {
        if (program.fault() == Fault.LOST || program.fault() == Fault.SESSION_LOST) {
            return inFlight.values().stream().anyMatch(g -> g.client() == c);
        }
        if (program.fault() == Fault.INTERRUPT) { // its target holds a lock (and waits for the interrupt)
            return current.containsKey("w" + program.faultWorker());
        }
        if (program.fault() == Fault.FAR_EXPIRY) { // a waiter of another client polls the store and reads the TTL
            String token = space.holderToken("x");
            Granted holder = token == null ? null : grants.get(token);
            return holder != null && waitingOn.values().stream()
                    .anyMatch(w -> w.endsWith(":x") && !w.startsWith(holder.client() + ":"));
        }
        return heldWithWaiter(c) != null;
    }

    /**
     * A hold of client {@code c} on a name another worker of {@code c} is waiting for now (the first found), or null.
     */
    private Held heldWithWaiter(int c) {
        for (Held h : current.values()) {
            if (h.client == c && h.lease.isValid()) {
                for (Map.Entry<String, String> w : waitingOn.entrySet()) {
                    if (!h.worker.startsWith(w.getKey()) && w.getValue().equals(c + ":" + h.name)) {
                        return h;
                    }
                }
            }
        }
        return null;
    }

    /** The operator's overwrite of {@code name}'s fencing counter with the largest token. */
    private void exhaustFence(String name) {
        try {
            space.fenceTampering().overwriteLock(name, io.distlock.tck.FenceStateTampering.ForeignValue.LARGEST);
        } catch (Exception e) {
            throw new IllegalStateException("the stub's fence tampering failed", e);
        }
    }

    /** The store forgets every hold of client {@code c}'s session. */
    private void endSession(int c) {
        for (Granted g : grants.values()) {
            if (g.client() == c) {
                space.dropHolder(g.grant().name(), g.grant().ownerToken());
            }
        }
    }

    // ---- checks ----

    /** At a choice: at most one valid lease per name, and a valid lease is the store's holder. */
    private void checkHolders() {
        Map<String, List<Held>> valid = new HashMap<>();
        for (String name : NAMES) {
            if (space.holderToken(name) != null) {
                lastHeldSeen.put(name, System.nanoTime());
            }
        }
        checkLateRenewals();
        checkPermits();
        for (Held held : current.values()) {
            // the store first: a lease valid after the store was read as free was valid while the store had it free
            // (its local deadline comes before the store's expiry); read the other way, a check descheduled between
            // the two reads on a loaded machine could see a lease valid just before its deadline and the store's
            // expiry just after
            String token = space.holderToken(held.name);
            if (!held.lease.isValid()) {
                held.exitAt(System.nanoTime());
                continue;
            }
            if (broken.contains(held.name + "/" + held.fence)) {
                continue; // force-released behind its client's back: valid here until the core looks in the store
            }
            valid.computeIfAbsent(held.name, k -> new ArrayList<>()).add(held);
            if (suspended.contains(held.client)) {
                violations.add("a valid lease while its connection is suspended: " + held.worker + "'s lease on '"
                        + held.name + "' (fence " + held.fence + ") is valid, not uncertain");
            }
            Granted holder = token == null ? null : grants.get(token);
            if (holder == null || holder.grant().fencingToken() != held.fence) {
                violations.add("a valid lease the store does not hold: " + held.worker + "'s lease on '" + held.name
                        + "' (fence " + held.fence + ") is valid, the store's holder is "
                        + (holder == null ? "nobody" : "fence " + holder.grant().fencingToken()));
            }
        }
        valid.forEach((name, list) -> {
            if (list.size() > 1) {
                violations.add("two valid holders of '" + name + "': "
                        + list.stream().map(h -> h.worker + " fence " + h.fence).toList());
            }
        });
    }

    /**
     * RENEW_LATE: a lease lost here whose renewal answer came after its local deadline must not stay held in the
     * store (freed at once: unless the answer is still at its yield point, or the release on its way to the store).
     */
    private void checkLateRenewals() {
        Set<String> at = scheduler.readyLabels();
        for (Held h : lateRenewed) {
            String token = space.holderToken(h.name);
            Granted holder = token == null ? null : grants.get(token);
            if (holder != null && holder.grant().fencingToken() == h.fence && !h.lease.isValid()
                    && !at.contains("c" + h.client + ".release(" + h.name + ")")
                    && !at.contains("c" + h.client + ".renewed(" + h.name + ")")) { // the answer not yet in the core
                violations.add("held by nobody alive: " + h.worker + "'s lease on '" + h.name + "' (fence " + h.fence
                        + ") is " + h.lease.state() + " here, its renewal answered late, and the store still holds"
                        + " it for " + space.holderRemaining(h.name));
            }
        }
    }

    /**
     * Every releaseAfter of a client no fault struck kept its lock until its minimum hold (no other holder entered
     * before, less a margin) and freed it then (the store no longer holds it a margin later).
     */
    private void checkDelayedReleases() throws InterruptedException {
        for (DelayedRelease r : delayed) {
            long until = r.enterNanos() + r.minHeld().toNanos();
            if (struck.contains(r.client())) {
                long left = until - System.nanoTime();
                if (left > 0) { // it may still hold its lock until then: the end's check comes after
                    never.await(left, TimeUnit.NANOSECONDS);
                }
                continue;
            }
            for (CriticalSection s : sections) {
                if (s.lock().equals(r.name()) && s.token() > r.fence()
                        && s.enterNanos() < until - MIN_HELD_MARGIN.toNanos()) {
                    violations.add("minHeld not kept: " + s.client() + " entered '" + r.name() + "' "
                            + Duration.ofNanos(s.enterNanos() - r.enterNanos()) + " after " + r.worker()
                            + " (fence " + r.fence() + ") acquired it and called releaseAfter(" + r.minHeld() + ")");
                }
            }
            // due at the minimum hold, or when the call returned if that came later (a worker kept from its call by
            // the scheduler, the run's end just after it): the release thread then frees it within the margin
            long due = r.returnedNanos() - until > 0 ? r.returnedNanos() : until;
            long checkAt = due + MIN_HELD_MARGIN.toNanos();
            long wait = checkAt - System.nanoTime();
            if (wait > 0) {
                never.await(wait, TimeUnit.NANOSECONDS);
            }
            String token = space.holderToken(r.name());
            Granted holder = token == null ? null : grants.get(token);
            if (holder != null && holder.grant().fencingToken() == r.fence()) {
                violations.add("releaseAfter did not free at minHeld: '" + r.name() + "' (fence " + r.fence()
                        + ") is still held " + MIN_HELD_MARGIN.toMillis() + " ms past " + r.worker()
                        + "'s releaseAfter(" + r.minHeld() + ") was due, for " + space.holderRemaining(r.name())
                        + " more");
            }
        }
    }

    private void checkEnd() throws InterruptedException {
        checkLateRenewals();
        HistoryReport report = HistoryChecker.check(sections.stream()
                .filter(s -> !broken.contains(s.lock() + "/" + s.token())).toList());
        report.overlaps().forEach(o -> violations.add("two holders inside at once: " + o));
        report.tokenViolations().forEach(v -> violations.add("fencing: " + v));
        Map<String, Set<Long>> fences = new HashMap<>();
        for (Granted g : grants.values()) {
            if (!fences.computeIfAbsent(g.grant().name(), k -> ConcurrentHashMap.newKeySet())
                    .add(g.grant().fencingToken())) {
                violations.add("token issued twice: fence " + g.grant().fencingToken() + " of '"
                        + g.grant().name() + "'");
            }
        }
        checkDelayedReleases();
        for (int c = 0; c < stores.size(); c++) {
            closedClients.add(c);
            struck.add(c);
            stores.get(c).close();
            if (program.model() == LeaseModel.SESSION) {
                endSession(c);
            }
        }
        for (String name : NAMES) {
            Duration left = space.holderRemaining(name);
            if (left != null && left.compareTo(EXPIRY_ALLOWED) > 0) {
                Granted holder = grants.get(space.holderToken(name));
                violations.add("held by nobody alive: '" + name + "' is still held in the store (fence "
                        + (holder == null ? "?" : holder.grant().fencingToken() + ", client" + holder.client())
                        + ") for " + left + " after every worker ended and every client closed");
            }
        }
    }
}
