package io.distlock.chaos.explore;

import java.util.Set;

/**
 * The plan of a {@link Fault#SERVER_RESTORE_RELEASED} run: armed at the fault's step, it has the data copied at the
 * next grant (a scenario client's or the observer's probe, while that hold is still held; after the scenario, the
 * probe of the free name) and the server killed once the store no longer lists that hold's token (its holder let it
 * go and lives on). Thread-safe: grants come from the
 * scenario's threads and the observer's, listings from the observer's.
 */
final class Revival {

    private final Runnable copy;
    private final Runnable kill;
    private State state = State.IDLE;
    private long token;
    private long copiedAt;

    private enum State { IDLE, ARMED, COPIED, KILLED, OVER }

    /** {@code copy} backs the data up; {@code kill} kills the server and restores it from that copy. */
    Revival(Runnable copy, Runnable kill) {
        this.copy = copy;
        this.kill = kill;
    }

    /** The fault's step arrived: the next grant is the one copied. */
    synchronized void arm() {
        if (state == State.IDLE) {
            state = State.ARMED;
        }
    }

    /** A hold with {@code fencingToken} was granted and is held: copied if it is the first since the step. */
    synchronized void granted(long fencingToken) {
        if (state == State.ARMED) {
            copy.run();
            copiedAt = System.nanoTime();
            token = fencingToken;
            state = State.COPIED;
        }
    }

    /**
     * The store listed {@code tokens} for the name in a listing begun at {@code begun} (nanoTime): once a listing
     * begun after the copy no longer shows the copied token, the server is killed.
     */
    synchronized void listed(Set<Long> tokens, long begun) {
        if (state == State.COPIED && begun - copiedAt > 0 && !tokens.contains(token)) {
            state = State.KILLED;
            kill.run();
            notifyAll();
        }
    }

    /**
     * The scenario ended: if the plan was armed and has not killed yet, waits at most {@code within} for it (the
     * observer's probe of the now free name is the next grant), so every run that reached its step restores.
     */
    synchronized void awaitKill(java.time.Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while ((state == State.ARMED || state == State.COPIED) && deadline - System.nanoTime() > 0) {
            java.util.concurrent.TimeUnit.NANOSECONDS.timedWait(this, deadline - System.nanoTime());
        }
    }

    /** The scenario ended: nothing more is copied or killed; whether the server was killed. */
    synchronized boolean end() {
        boolean killed = state == State.KILLED;
        state = State.OVER;
        return killed;
    }
}
