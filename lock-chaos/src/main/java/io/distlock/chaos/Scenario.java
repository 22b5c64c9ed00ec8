package io.distlock.chaos;

import java.time.Duration;

/**
 * The faults of the suite. Each injects its fault {@code rounds} times into a running {@link ChaosRun} and returns
 * when the fault has healed, reporting when ({@link Injection}). Scenarios that do not apply to a store say why.
 */
enum Scenario {

    /** SIGSTOP the holder right after it acquired, past its lease (or session), then SIGCONT it. */
    CLIENT_PAUSE("client pause", false) {
        @Override
        Injection inject(ChaosRun run, int rounds) throws Exception {
            long end = 0;
            for (int i = 0; i < rounds; i++) {
                run.drain();
                Event acquired = run.awaitAcquisition();
                WorkerProcess holder = run.worker(acquired.worker());
                holder.pause();
                run.runFor(run.target().holdBound().multipliedBy(2).plusSeconds(2));
                holder.resume();
                end = System.nanoTime();
                run.runFor(Duration.ofSeconds(2));
            }
            return new Injection(rounds, end);
        }
    },

    /** SIGKILL the holder right after it acquired; a new worker takes its place. */
    CLIENT_CRASH("client crash", false) {
        @Override
        Injection inject(ChaosRun run, int rounds) throws Exception {
            long end = 0;
            for (int i = 0; i < rounds; i++) {
                run.drain();
                Event acquired = run.awaitAcquisition();
                WorkerProcess holder = run.worker(acquired.worker());
                holder.kill();
                end = System.nanoTime();
                run.retire(holder);
                run.startWorker();
                run.runFor(run.target().holdBound().plusSeconds(3));
            }
            return new Injection(rounds, end);
        }
    },

    /** Kill the server (SIGKILL, or stop an in-process one) while the lock is in use; restart it after 1 s. */
    SERVER_RESTART("server crash and restart", false) {
        @Override
        Injection inject(ChaosRun run, int rounds) throws Exception {
            long end = 0;
            for (int i = 0; i < rounds; i++) {
                run.drain();
                run.awaitAcquisition();
                run.target().crashAndRestart(Duration.ofSeconds(1));
                end = System.nanoTime();
                run.runFor(run.target().holdBound().multipliedBy(2).plusSeconds(3));
            }
            return new Injection(rounds, end);
        }
    },

    /** SIGSTOP the server past the lease time, then SIGCONT it. */
    SERVER_PAUSE("server pause", false) {
        @Override
        Injection inject(ChaosRun run, int rounds) throws Exception {
            long end = 0;
            for (int i = 0; i < rounds; i++) {
                run.drain();
                run.awaitAcquisition();
                run.target().pause();
                try {
                    run.runFor(run.target().holdBound().multipliedBy(2).plusSeconds(1));
                } finally {
                    run.target().resume();
                }
                end = System.nanoTime();
                run.runFor(run.target().holdBound().plusSeconds(3));
            }
            return new Injection(rounds, end);
        }
    },

    /** Freeze every connection through the proxy for half the lease time: shorter than a lease, nothing may be lost. */
    NETWORK_FREEZE_SHORT("network freeze < lease", true) {
        @Override
        Injection inject(ChaosRun run, int rounds) throws Exception {
            return freeze(run, rounds, run.target().holdBound().dividedBy(2));
        }
    },

    /** Freeze every connection through the proxy for twice the lease time. */
    NETWORK_FREEZE_LONG("network freeze > lease", true) {
        @Override
        Injection inject(ChaosRun run, int rounds) throws Exception {
            return freeze(run, rounds, run.target().holdBound().multipliedBy(2).plusSeconds(1));
        }
    },

    /** Flush Redis's script cache right after an acquisition, so the release meets NOSCRIPT and must reload. */
    SCRIPT_FLUSH("script cache flushed", false) {
        @Override
        String notApplicable(StoreTarget target) {
            return target instanceof RedisTarget ? null : "Redis only";
        }

        @Override
        Injection inject(ChaosRun run, int rounds) throws Exception {
            long end = 0;
            for (int i = 0; i < rounds * 5; i++) {
                run.drain();
                run.awaitAcquisition();
                RedisCli.run(run.target().port(), "SCRIPT", "FLUSH");
                end = System.nanoTime();
                run.runFor(Duration.ofMillis(300));
            }
            return new Injection(rounds * 5, end);
        }
    },

    /** Redlock with 2 of 5 masters killed: a majority remains, locking goes on. */
    REDLOCK_MINORITY_DOWN("redlock: 2 of 5 nodes down", false) {
        @Override
        String notApplicable(StoreTarget target) {
            return target instanceof RedlockTarget ? null : "Redlock only";
        }

        @Override
        Injection inject(ChaosRun run, int rounds) throws Exception {
            return nodesDown(run, rounds, 2);
        }
    },

    /** Redlock with 3 of 5 masters killed: no majority, acquisitions must fail as unavailable, never overlap. */
    REDLOCK_MAJORITY_DOWN("redlock: 3 of 5 nodes down", false) {
        @Override
        String notApplicable(StoreTarget target) {
            return target instanceof RedlockTarget ? null : "Redlock only";
        }

        @Override
        Injection inject(ChaosRun run, int rounds) throws Exception {
            return nodesDown(run, rounds, 3);
        }
    },

    /** Drop (close) every connection through the proxy; clients must reconnect. */
    NETWORK_DROP("network drop", true) {
        @Override
        Injection inject(ChaosRun run, int rounds) throws Exception {
            long end = 0;
            for (int i = 0; i < rounds; i++) {
                run.drain();
                run.awaitAcquisition();
                run.proxy().closeAllPairs();
                end = System.nanoTime();
                run.runFor(run.target().holdBound().plusSeconds(3));
            }
            return new Injection(rounds, end);
        }
    };

    private final String title;
    private final boolean needsProxy;

    Scenario(String title, boolean needsProxy) {
        this.title = title;
        this.needsProxy = needsProxy;
    }

    String title() {
        return title;
    }

    boolean needsProxy() {
        return needsProxy;
    }

    /** Why this scenario does not apply to {@code target}, or null if it does. */
    String notApplicable(StoreTarget target) {
        if (needsProxy && (target instanceof ZooKeeperEnsembleTarget || target instanceof RedlockTarget)) {
            return "a proxy fronts one server; network faults run on the single-server targets";
        }
        if (this == SERVER_PAUSE && !target.canPause()) {
            return "the server cannot be paused with SIGSTOP here";
        }
        return null;
    }

    /** Injects the fault {@code rounds} times. */
    abstract Injection inject(ChaosRun run, int rounds) throws Exception;

    private static Injection nodesDown(ChaosRun run, int rounds, int count) throws Exception {
        RedlockTarget redlock = (RedlockTarget) run.target();
        long end = 0;
        for (int i = 0; i < rounds; i++) {
            run.drain();
            run.awaitAcquisition();
            redlock.stopNodes(count);
            run.runFor(redlock.holdBound().multipliedBy(2).plusSeconds(1));
            redlock.startStoppedNodes();
            end = System.nanoTime();
            run.runFor(redlock.holdBound().plusSeconds(3));
        }
        return new Injection(rounds, end);
    }

    private static Injection freeze(ChaosRun run, int rounds, Duration frozen) throws Exception {
        long end = 0;
        for (int i = 0; i < rounds; i++) {
            run.drain();
            run.awaitAcquisition();
            run.proxy().freeze();
            try {
                run.runFor(frozen);
            } finally {
                run.proxy().unfreeze();
            }
            end = System.nanoTime();
            run.runFor(run.target().holdBound().plusSeconds(3));
        }
        return new Injection(rounds, end);
    }

    /** How many faults were injected and when the last one healed (nanoTime). */
    record Injection(int faults, long healedAtNanos) {
    }
}
