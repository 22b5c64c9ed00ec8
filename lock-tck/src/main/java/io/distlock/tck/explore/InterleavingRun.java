package io.distlock.tck.explore;

import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.LeaseModel;
import io.distlock.LockException;
import io.distlock.LockOptions;
import io.distlock.core.BackendLockStore;
import io.distlock.spi.Grant;
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
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs one {@link ExplorerProgram} on stub stores under a {@link YieldScheduler} and checks it. At every choice of
 * the scheduler: at most one valid lease per name, a valid lease is the store's holder, and no lease of a suspended
 * connection is valid; a lease lost with no fault on its client is a violation too. At the end: no fencing
 * token granted twice or out of order (the kit's {@link HistoryChecker} over the holders' sections), every wait
 * within its bound, no waiter that waited out its whole wait while the lock stood free (a lost wake-up), every
 * thread ended (none stuck), and once every worker is done and every client closed, no lock held in the store by
 * nobody alive.
 */
final class InterleavingRun {

    static final Duration LEASE = Duration.ofSeconds(10);
    static final Duration SHORT_LEASE = Duration.ofMillis(600);
    static final Duration RENEWED_HOLD = Duration.ofMillis(300);
    static final Duration WAIT = Duration.ofSeconds(2);
    static final Duration MIN_HELD = Duration.ofMillis(50);
    /** The minimum hold of RENEWED_RELEASE_AFTER: longer than its lease, so a renewal landing last would cut it. */
    static final Duration LONG_MIN_HELD = Duration.ofMillis(2000);
    /** How late past minHeld a releaseAfter may free the lock, or how early another holder may enter, under load. */
    static final Duration MIN_HELD_MARGIN = Duration.ofMillis(500);
    /** What a wait may take beyond what was asked on a loaded machine (scheduler turns included). */
    static final Duration WAIT_SLACK = Duration.ofSeconds(2);
    /** How long the store may keep a lock nobody holds after the end: a releaseAfter's expiry (minHeld + 1 s). */
    static final Duration EXPIRY_ALLOWED = Duration.ofSeconds(2);
    static final Duration RUN_BOUND = Duration.ofSeconds(20);

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
        volatile boolean releasedAfter;

        Held(String worker, int client, Lease lease) {
            this.worker = worker;
            this.client = client;
            this.lease = lease;
            this.name = lease.lockName();
            this.fence = lease.fencingToken();
            lease.onLost(e -> exitAt(System.nanoTime()));
        }

        void exitAt(long nanos) {
            exitNanos.accumulateAndGet(nanos, Math::min);
        }
    }

    /** A releaseAfter that returned normally: the lock must stay held until, and be freed at, its minimum hold. */
    private record DelayedRelease(String worker, int client, String name, long fence, long enterNanos,
            Duration minHeld) {
    }

    /** A grant the stub made, and to which client. */
    private record Granted(int client, Grant grant) {
    }

    private final ExplorerProgram program;
    private final YieldScheduler scheduler;
    private final StubSpace space = StubSpace.withClockFloor();
    private final List<StubBackend> backends = new ArrayList<>();
    private final List<BackendLockStore> stores = new ArrayList<>();
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
            StubBackend backend = new StubBackend(space);
            backend.leaseModel(program.model());
            backend.handOvers(program.handOvers());
            int client = c;
            backend.probe((b, point, name, grant) -> at(client, b, point, name, grant));
            backends.add(backend);
            stores.add(new BackendLockStore(backend, "stub-client" + c));
        }
        Set<Thread> actors = new LinkedHashSet<>();
        for (int w = 0; w < program.workers().size(); w++) {
            Worker worker = program.workers().get(w);
            String label = "w" + w;
            actors.add(new Thread(() -> work(label, worker), label));
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
        if (point.equals("granted")) {
            grants.put(grant.ownerToken(), new Granted(client, grant));
            inFlight.put(grant.ownerToken(), new Granted(client, grant));
        } else {
            failIfClosed(backend);
        }
        scheduler.yieldPoint("c" + client + "." + point + "(" + name + ")");
    }

    private static void failIfClosed(StubBackend backend) {
        if (backend.isClosed()) {
            throw new IllegalStateException("the stub client is closed (its connections are gone)");
        }
    }

    // ---- workers ----

    private void work(String label, Worker worker) {
        scheduler.yieldPoint("start");
        BackendLockStore store = stores.get(worker.client());
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
                violations.add(label + " " + step + ": interrupted");
                return;
            } catch (RuntimeException e) {
                violations.add(label + " " + step + ": unexpected " + e);
            }
        }
    }

    private void step(String label, int client, BackendLockStore store, Step step) throws InterruptedException {
        Op op = step.op();
        // a session-bound store keeps a lease as long as the session; the stub ends entries by time only, so
        // session-bound programs use the long lease throughout
        boolean shortLease = (op == Op.RENEWED || op == Op.RENEWED_RELEASE_AFTER)
                && program.model() == LeaseModel.TIME;
        LockOptions options = shortLease
                ? LockOptions.defaults().withLeaseTime(SHORT_LEASE)
                : LockOptions.defaults().withLeaseTime(LEASE);
        DistributedLock lock = store.lock(step.name(), options);
        Lease lease;
        if (op == Op.TRY_NOW || op == Op.TRY_WAIT) {
            long start = System.nanoTime();
            Duration wait = op == Op.TRY_NOW ? Duration.ZERO : WAIT;
            Optional<Lease> got;
            acquiring.incrementAndGet(client);
            try {
                got = op == Op.TRY_NOW ? lock.tryAcquire() : lock.tryAcquire(wait);
            } finally {
                acquiring.decrementAndGet(client);
            }
            long took = System.nanoTime() - start;
            if (took > wait.plus(WAIT_SLACK).toNanos()) {
                violations.add("unbounded wait: " + label + " " + step + " took " + Duration.ofNanos(took)
                        + " for a wait of " + wait);
            }
            if (got.isEmpty()) {
                checkWakeUp(label, step, wait, took);
                return;
            }
            lease = got.get();
        } else {
            acquiring.incrementAndGet(client);
            try {
                lease = lock.acquire();
            } finally {
                acquiring.decrementAndGet(client);
            }
        }
        Held held = hold(label, client, lease);
        scheduler.yieldPoint("holding");
        switch (op) {
            case EXTEND -> {
                lease.extend(LEASE);
                scheduler.yieldPoint("extended");
            }
            case NESTED -> {
                Lease inner = lock.acquire();
                scheduler.yieldPoint("nested");
                inner.release();
            }
            case RENEWED, RENEWED_RELEASE_AFTER -> never.await(RENEWED_HOLD.toMillis(), TimeUnit.MILLISECONDS);
            default -> {
            }
        }
        leave(held);
        if (op == Op.RELEASE_AFTER || op == Op.RENEWED_RELEASE_AFTER) {
            Duration minHeld = op == Op.RELEASE_AFTER ? MIN_HELD : LONG_MIN_HELD;
            held.releasedAfter = true;
            lease.releaseAfter(minHeld);
            delayed.add(new DelayedRelease(label, client, held.name, held.fence, held.enterNanos, minHeld));
        } else {
            lease.release();
        }
    }

    private Held hold(String label, int client, Lease lease) {
        Held held = new Held(label, client, lease);
        lease.onLost(e -> {
            // after releaseAfter the store keeps the lock by its expiry (minHeld + 1 s) until the delayed release;
            // on a loaded machine, with the scheduler holding that release back, it can come after the expiry
            if (!struck.contains(client) && !held.releasedAfter) {
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
        for (int i = 0; i < program.faultYields(); i++) {
            scheduler.yieldPoint("fault-wait");
        }
        int c = program.faultClient();
        StubBackend backend = backends.get(c);
        faultHitGrantInFlight = inFlight.values().stream().anyMatch(g -> g.client() == c);
        faultHitAcquireInFlight = acquiring.get(c) > 0;
        struck.add(c);
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
                for (Granted g : new ArrayList<>(grants.values())) {
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
            default -> {
            }
        }
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
        for (String name : List.of("x", "y")) {
            if (space.holderToken(name) != null) {
                lastHeldSeen.put(name, System.nanoTime());
            }
        }
        for (Held held : current.values()) {
            if (!held.lease.isValid()) {
                held.exitAt(System.nanoTime());
                continue;
            }
            valid.computeIfAbsent(held.name, k -> new ArrayList<>()).add(held);
            if (suspended.contains(held.client)) {
                violations.add("a valid lease while its connection is suspended: " + held.worker + "'s lease on '"
                        + held.name + "' (fence " + held.fence + ") is valid, not uncertain");
            }
            String token = space.holderToken(held.name);
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
     * Every releaseAfter of a client no fault struck kept its lock until its minimum hold (no other holder entered
     * before, less a margin) and freed it then (the store no longer holds it a margin later).
     */
    private void checkDelayedReleases() throws InterruptedException {
        for (DelayedRelease r : delayed) {
            if (struck.contains(r.client())) {
                continue;
            }
            long until = r.enterNanos() + r.minHeld().toNanos();
            for (CriticalSection s : sections) {
                if (s.lock().equals(r.name()) && s.token() > r.fence()
                        && s.enterNanos() < until - MIN_HELD_MARGIN.toNanos()) {
                    violations.add("minHeld not kept: " + s.client() + " entered '" + r.name() + "' "
                            + Duration.ofNanos(s.enterNanos() - r.enterNanos()) + " after " + r.worker()
                            + " (fence " + r.fence() + ") acquired it and called releaseAfter(" + r.minHeld() + ")");
                }
            }
            long checkAt = until + MIN_HELD_MARGIN.toNanos();
            long wait = checkAt - System.nanoTime();
            if (wait > 0) {
                never.await(wait, TimeUnit.NANOSECONDS);
            }
            String token = space.holderToken(r.name());
            Granted holder = token == null ? null : grants.get(token);
            if (holder != null && holder.grant().fencingToken() == r.fence()) {
                violations.add("releaseAfter did not free at minHeld: '" + r.name() + "' (fence " + r.fence()
                        + ") is still held " + MIN_HELD_MARGIN.toMillis() + " ms past " + r.worker()
                        + "'s releaseAfter(" + r.minHeld() + "), for " + space.holderRemaining(r.name()) + " more");
            }
        }
    }

    private void checkEnd() throws InterruptedException {
        HistoryReport report = HistoryChecker.check(sections);
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
        for (String name : List.of("x", "y")) {
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
