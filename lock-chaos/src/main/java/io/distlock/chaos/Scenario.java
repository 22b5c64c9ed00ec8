package io.distlock.chaos;

import io.distlock.tck.fixture.ServerControl;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The faults of the suite. Each fault is injected after a random delay (up to one lease), so it lands at a random
 * point of the workers' cycle: in the middle of a hold as often as between holds. Client faults hit the worker that
 * holds the lock at that moment, if any. The injection returns once the fault has healed; the workload then runs on
 * for a while so recovery shows in the history. Scenarios that do not apply to a store say why.
 */
enum Scenario {

    /** SIGSTOP the worker holding the lock (or any, between holds) past its lease (or session), then SIGCONT it. */
    CLIENT_PAUSE("client pause", false, false, run -> {
        WorkerProcess holder = run.victim();
        holder.pause();
        try {
            run.runFor(run.target().holdBound().plusSeconds(1));
        } finally {
            holder.resume();
        }
        return true;
    }),

    /** SIGKILL the worker holding the lock (or any, between holds); a new worker takes its place. */
    CLIENT_CRASH("client crash", false, false, run -> {
        WorkerProcess holder = run.victim();
        holder.kill();
        run.retire(holder);
        run.startWorker();
        return true;
    }),

    /**
     * Kill the server (SIGKILL) wherever the workload is; restart it after 0.1-1 s from
     * its own files (what its persistence mode kept), as a supervisor would.
     */
    SERVER_RESTART("server crash and restart", false, false, run -> {
        run.target().crashAndRestart(Duration.ofMillis(ThreadLocalRandom.current().nextLong(100, 1001)));
        return true;
    }),

    /** SIGSTOP the server past the lease time, then SIGCONT it. */
    SERVER_PAUSE("server pause", false, false, run -> {
        ServerControl server = run.target().server().orElseThrow();
        server.pause();
        try {
            run.runFor(run.target().holdBound().plusSeconds(1));
        } finally {
            server.resume();
        }
        return true;
    }),

    /** Freeze every connection through the proxy for half the lease time: shorter than a lease, nothing is lost. */
    NETWORK_FREEZE_SHORT("network freeze < lease", true, false,
            run -> freeze(run, run.target().holdBound().dividedBy(2))),

    /** Freeze every connection through the proxy for longer than the lease time. */
    NETWORK_FREEZE_LONG("network freeze > lease", true, false,
            run -> freeze(run, run.target().holdBound().plusSeconds(1))),

    /**
     * An operator restores the server from a backup: its data is copied, the workload runs on for a lease and a
     * half, then the server is killed and started again from the copy, which lacks every grant made since. Tokens
     * must still grow past every token granted before.
     */
    RESTORE_OLDER_COPY("server restored from an older copy of its data", false, false, run -> {
        StoreTarget target = run.target();
        target.backUp();
        run.runFor(target.holdBound().multipliedBy(3).dividedBy(2));
        target.restoreOlderCopy();
        return true;
    }),

    /**
     * Fail-back to an old master that never resynced: the master is demoted (it keeps its data), its replica is
     * promoted and serves for a lease and a half (past its guard window); as soon as a worker is granted the lock there
     * the old master is promoted again with the older history it kept and the promoted replica dies. Its run_id is the
     * one its guard marker was written with; the locks granted meanwhile are not in its data. No second holder may get
     * in while one may still run.
     */
    FAIL_BACK("fail-back: old master promoted again without resync", false, false, run -> {
        StoreTarget target = run.target();
        target.failOverToReplica();
        run.runFor(target.holdBound().multipliedBy(3).dividedBy(2));
        run.drain();
        run.awaitAcquisition(); // X holds the lock on the promoted replica, past its guard window
        run.faultHitAt(System.nanoTime());
        target.failBackToOldMaster();
        return true;
    }),

    /** Flush Redis's script cache, so the next script call meets NOSCRIPT and must reload. */
    SCRIPT_FLUSH("script cache flushed", false, true, run -> {
        RedisCli.run(run.target().port(), "SCRIPT", "FLUSH");
        return true;
    }),

    /**
     * An operator's cleanup: the lock's row is deleted while nobody holds it (released or expired), between two
     * holders. The next acquisition inserts the row afresh; its fencing token must still be above every earlier one.
     * For a semaphore, its fence counter's row and its free permit rows go, held permits stay.
     */
    ROW_DELETE("lock row deleted between holders", false, true, run -> {
        SqlTarget sql = (SqlTarget) run.target();
        Duration within = run.target().holdBound().multipliedBy(2);
        return run.faultHitAt(run.takesPermits() ? sql.deleteFreePermitRows(run.lockName(), within)
                : sql.deleteFreeRow(run.lockName(), within));
    }),

    /**
     * A worker whose wall clock is wrong by minutes to a day (libfaketime) replaces a worker stopped after its round
     * (one with a true clock while there is one). Expiry is the store's clock and local deadlines are monotonic, so
     * nothing may change.
     */
    CLOCK_SKEW("worker with a wrong wall clock", false, false, run -> {
        run.retireRandomWorker(WrongClock.TAG);
        String offset = WrongClock.randomOffset();
        run.awaitReady(run.startWorker(WrongClock.prefix(offset),
                WrongClock.TAG + offset.replace('+', 'p').replace('-', 'm')));
        return true;
    }),

    /**
     * Kill the primary serving the lock (SIGKILL) so a replica is promoted (Redis Sentinel, Redis Cluster); the
     * killed node comes back as a replica. Replication is asynchronous: the last writes may not have reached it.
     */
    FAILOVER("failover: primary killed, replica promoted", false, false, run -> {
        ((FailoverTarget) run.target()).failover(run.lockName());
        return true;
    }),

    /**
     * ZooKeeper ensemble: every proxy between the leader and the two other members closed for the session timeout
     * plus 2 s (the others elect a new leader, the old one loses its quorum), then opened again.
     */
    LEADER_PARTITION("zookeeper: leader partitioned from the members", false, false, run -> {
        ((ZooKeeperPartitionTarget) run.target()).partitionLeader(run.target().holdBound().plusSeconds(2));
        return true;
    }),

    /** Redlock with 2 of 5 masters killed: a majority remains, locking goes on. */
    REDLOCK_MINORITY_DOWN("redlock: 2 of 5 nodes down", false, false, run -> nodesDown(run, 2)),

    /** Redlock with 3 of 5 masters killed: no majority; acquisitions fail as unavailable and never overlap. */
    REDLOCK_MAJORITY_DOWN("redlock: 3 of 5 nodes down", false, false, run -> nodesDown(run, 3)),

    /** Drop (close) every connection through the proxy; clients must reconnect. */
    NETWORK_DROP("network drop", true, true, run -> {
        run.proxy().closeAllPairs();
        return true;
    });

    /** One injection of a fault, returning when it has healed: false if it could not be injected this time. */
    @FunctionalInterface
    interface Fault {
        boolean inject(ChaosRun run) throws Exception;
    }

    /**
     * How many faults were injected, when each started (nanoTime, for the mid-hold count) and when the last one
     * healed.
     */
    record Injection(int faults, java.util.List<Long> startedAtNanos, long healedAtNanos) {
    }

    private final String title;
    private final boolean needsProxy;
    private final boolean instant;
    private final Fault fault;

    Scenario(String title, boolean needsProxy, boolean instant, Fault fault) {
        this.title = title;
        this.needsProxy = needsProxy;
        this.instant = instant;
        this.fault = fault;
    }

    String title() {
        return title;
    }

    boolean needsProxy() {
        return needsProxy;
    }

    /** Why this scenario does not apply to {@code target}, or null if it does. */
    String notApplicable(StoreTarget target) {
        boolean multiServer = target instanceof ZooKeeperEnsembleTarget || target instanceof RedlockTarget
                || target instanceof FailoverTarget || target instanceof ZooKeeperPartitionTarget
                || target instanceof RedisFailBackTarget;
        if (needsProxy && multiServer) {
            return "a proxy fronts one server; network faults run on the single-server targets";
        }
        if ((this == SERVER_RESTART || this == SERVER_PAUSE) && target.server().isEmpty()) {
            return "this target's server faults are its own (a failover, a partition)";
        }
        if (this == RESTORE_OLDER_COPY && !target.restorable()) {
            return "a single server whose data directory the run copies and puts back (ZooKeeper)";
        }
        if (this == FAIL_BACK && !target.failsBack()) {
            return "a master and replica whose old master can be promoted again (redis-failback-guard)";
        }
        if (this == SCRIPT_FLUSH && !(target instanceof RedisTarget)) {
            return "Redis only";
        }
        if (this == CLOCK_SKEW && WrongClock.library().isEmpty()) {
            return "libfaketime is not installed (apt-get install faketime)";
        }
        if (this == FAILOVER && !(target instanceof FailoverTarget)) {
            return "replicated stores only (Redis Sentinel, Redis Cluster)";
        }
        if (this == LEADER_PARTITION && !(target instanceof ZooKeeperPartitionTarget)) {
            return "the ZooKeeper ensemble whose members talk through proxies only";
        }
        if (this == ROW_DELETE && !(target instanceof SqlTarget)) {
            return "SQL stores only";
        }
        if ((this == REDLOCK_MINORITY_DOWN || this == REDLOCK_MAJORITY_DOWN) && !(target instanceof RedlockTarget)) {
            return "Redlock only";
        }
        return null;
    }

    /**
     * Injects the fault {@code faults} times, each after a random delay of up to one lease, so it lands anywhere in
     * the cycle. Between faults the workload runs on: one lease and a half after a lasting fault, half a second after
     * an instant one. A fault that could not be injected (no free moment for a row deletion) is not counted.
     */
    Injection inject(ChaosRun run, int faults) throws Exception {
        java.util.List<Long> started = new java.util.ArrayList<>();
        long healed = 0;
        Duration lease = run.target().lease();
        Duration after = instant ? Duration.ofMillis(500) : run.target().holdBound().plusMillis(500);
        for (int i = 0; i < faults; i++) {
            run.runFor(Duration.ofMillis(ThreadLocalRandom.current().nextLong(lease.toMillis() + 1)));
            long at = System.nanoTime();
            run.faultHitAt(at);
            if (fault.inject(run)) {
                started.add(run.faultMoment());
                healed = System.nanoTime();
            }
            run.runFor(after);
        }
        return new Injection(started.size(), started, healed);
    }

    private static boolean freeze(ChaosRun run, Duration frozen) throws InterruptedException {
        run.proxy().freeze();
        try {
            run.runFor(frozen);
        } finally {
            run.proxy().unfreeze();
        }
        return true;
    }

    private static boolean nodesDown(ChaosRun run, int count) throws InterruptedException {
        RedlockTarget redlock = (RedlockTarget) run.target();
        redlock.stopNodes(count);
        try {
            run.runFor(redlock.holdBound().plusSeconds(1));
        } finally {
            redlock.startStoppedNodes();
        }
        return true;
    }
}
