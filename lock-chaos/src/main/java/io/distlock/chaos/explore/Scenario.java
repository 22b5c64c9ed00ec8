package io.distlock.chaos.explore;

import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * A small script of two or three clients on one name that the explorer stops at each round trip. It records its
 * history through the {@link RunContext}; the checker reads the holds with the scenario's {@link #limit()}. At the
 * end every client is closed and a fresh client (straight to the server) must get the name, {@link #free}, within
 * a bound: nothing may stay held by nobody alive.
 */
public enum Scenario {

    /** Lock: A1 holds, A2 (same client) and B wait; extend, renew, hand-over, releaseAfter, close while waiting. */
    LOCK("lock", 1) {
        @Override
        void run(RunContext ctx) throws Exception {
            LockScenario.run(ctx);
        }
    },

    /** Semaphore of 2: A and B hold, C waits; extend, release to C, releaseAfter, close while holding. */
    SEMAPHORE("semaphore", 2) {
        @Override
        void run(RunContext ctx) throws Exception {
            SemaphoreScenario.run(ctx);
        }

        @Override
        boolean free(LockStore direct, String name, LockOptions options, Duration within)
                throws InterruptedException {
            var first = direct.semaphore(name, 2, options).tryAcquire(within);
            var second = direct.semaphore(name, 2, options).tryAcquire(within);
            boolean both = first.isPresent() && second.isPresent();
            first.ifPresent(l -> l.release());
            second.ifPresent(l -> l.release());
            return both;
        }
    },

    /** Leadership: A and B campaign; the leader steps down, the next one is closed while leading. */
    LEADERSHIP("leadership", 1) {
        @Override
        void run(RunContext ctx) throws Exception {
            LeadershipScenario.run(ctx);
        }
    };

    private final String label;
    private final int limit;

    Scenario(String label, int limit) {
        this.label = label;
        this.limit = limit;
    }

    /** Runs the script once, recording into {@code ctx}. */
    abstract void run(RunContext ctx) throws Exception;

    /** Whether a fresh client gets the whole name (every permit) within {@code within}. */
    boolean free(LockStore direct, String name, LockOptions options, Duration within) throws InterruptedException {
        var lease = direct.lock(name, options).tryAcquire(within);
        lease.ifPresent(l -> l.release());
        return lease.isPresent();
    }

    /** The scenario's name in run names and reports. */
    public String label() {
        return label;
    }

    /** How many holders may hold the name at once. */
    int limit() {
        return limit;
    }

    /** The scenario named {@code label}. */
    public static Scenario of(String label) {
        return Arrays.stream(values()).filter(s -> s.label.equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no scenario '" + label + "'; scenarios: "
                        + names()));
    }

    static List<String> names() {
        return Arrays.stream(values()).map(Scenario::label).toList();
    }
}
