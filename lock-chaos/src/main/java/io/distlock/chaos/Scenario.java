package io.distlock.chaos;

import java.time.Duration;

/**
 * The faults of the suite. Each round waits for an acquisition, injects the fault (which returns once the fault has
 * healed), notes when it healed, and lets the workload run on so recovery shows in the history. Scenarios that do
 * not apply to a store say why.
 */
enum Scenario {

    /** SIGSTOP the holder right after it acquired, past its lease (or session), then SIGCONT it. */
    CLIENT_PAUSE("client pause", false, 1, (run, acquired) -> {
        WorkerProcess holder = run.worker(acquired.worker());
        holder.pause();
        try {
            run.runFor(run.target().holdBound().multipliedBy(2).plusSeconds(2));
        } finally {
            holder.resume();
        }
    }),

    /** SIGKILL the holder right after it acquired; a new worker takes its place. */
    CLIENT_CRASH("client crash", false, 1, (run, acquired) -> {
        WorkerProcess holder = run.worker(acquired.worker());
        holder.kill();
        run.retire(holder);
        run.startWorker();
    }),

    /** Kill the server (SIGKILL, or stop an in-process one) while the lock is in use; restart it after 1 s. */
    SERVER_RESTART("server crash and restart", false, 1,
            (run, acquired) -> run.target().crashAndRestart(Duration.ofSeconds(1))),

    /** SIGSTOP the server past the lease time, then SIGCONT it. */
    SERVER_PAUSE("server pause", false, 1, (run, acquired) -> {
        run.target().pause();
        try {
            run.runFor(run.target().holdBound().multipliedBy(2).plusSeconds(1));
        } finally {
            run.target().resume();
        }
    }),

    /** Freeze every connection through the proxy for half the lease time: shorter than a lease, nothing is lost. */
    NETWORK_FREEZE_SHORT("network freeze < lease", true, 1,
            (run, acquired) -> freeze(run, run.target().holdBound().dividedBy(2))),

    /** Freeze every connection through the proxy for twice the lease time. */
    NETWORK_FREEZE_LONG("network freeze > lease", true, 1,
            (run, acquired) -> freeze(run, run.target().holdBound().multipliedBy(2).plusSeconds(1))),

    /** Flush Redis's script cache right after an acquisition, so the release meets NOSCRIPT and must reload. */
    SCRIPT_FLUSH("script cache flushed", false, 5,
            (run, acquired) -> RedisCli.run(run.target().port(), "SCRIPT", "FLUSH")),

    /** Redlock with 2 of 5 masters killed: a majority remains, locking goes on. */
    REDLOCK_MINORITY_DOWN("redlock: 2 of 5 nodes down", false, 1, (run, acquired) -> nodesDown(run, 2)),

    /** Redlock with 3 of 5 masters killed: no majority; acquisitions fail as unavailable and never overlap. */
    REDLOCK_MAJORITY_DOWN("redlock: 3 of 5 nodes down", false, 1, (run, acquired) -> nodesDown(run, 3)),

    /** Drop (close) every connection through the proxy; clients must reconnect. */
    NETWORK_DROP("network drop", true, 1, (run, acquired) -> run.proxy().closeAllPairs());

    /** One injection of a fault, returning when it has healed. */
    @FunctionalInterface
    interface Fault {
        void inject(ChaosRun run, Event acquisition) throws Exception;
    }

    /** How many faults were injected and when the last one healed (nanoTime). */
    record Injection(int faults, long healedAtNanos) {
    }

    private final String title;
    private final boolean needsProxy;
    private final int faultsPerRound;
    private final Fault fault;

    Scenario(String title, boolean needsProxy, int faultsPerRound, Fault fault) {
        this.title = title;
        this.needsProxy = needsProxy;
        this.faultsPerRound = faultsPerRound;
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
        boolean multiServer = target instanceof ZooKeeperEnsembleTarget || target instanceof RedlockTarget;
        if (needsProxy && multiServer) {
            return "a proxy fronts one server; network faults run on the single-server targets";
        }
        if (this == SERVER_RESTART && !target.canCrash()) {
            return "the server is shared with other work, not the run's own: it is not crashed";
        }
        if (this == SERVER_PAUSE && !target.canPause()) {
            return "the server cannot be paused with SIGSTOP here";
        }
        if (this == SCRIPT_FLUSH && !(target instanceof RedisTarget)) {
            return "Redis only";
        }
        if ((this == REDLOCK_MINORITY_DOWN || this == REDLOCK_MAJORITY_DOWN) && !(target instanceof RedlockTarget)) {
            return "Redlock only";
        }
        return null;
    }

    /** Injects the fault {@code rounds} times (some scenarios more per round), each after a fresh acquisition. */
    Injection inject(ChaosRun run, int rounds) throws Exception {
        int faults = rounds * faultsPerRound;
        long healed = 0;
        for (int i = 0; i < faults; i++) {
            run.drain();
            Event acquired = run.awaitAcquisition();
            fault.inject(run, acquired);
            healed = System.nanoTime();
            run.runFor(faultsPerRound > 1 ? Duration.ofMillis(300) : run.target().holdBound().plusSeconds(3));
        }
        return new Injection(faults, healed);
    }

    private static void freeze(ChaosRun run, Duration frozen) throws InterruptedException {
        run.proxy().freeze();
        try {
            run.runFor(frozen);
        } finally {
            run.proxy().unfreeze();
        }
    }

    private static void nodesDown(ChaosRun run, int count) throws InterruptedException {
        RedlockTarget redlock = (RedlockTarget) run.target();
        redlock.stopNodes(count);
        try {
            run.runFor(redlock.holdBound().multipliedBy(2).plusSeconds(1));
        } finally {
            redlock.startStoppedNodes();
        }
    }
}
