package io.distlock.bench.scenario;

import io.distlock.bench.core.Contender;
import io.distlock.bench.core.Sample;
import io.distlock.bench.core.Scenario;
import io.distlock.bench.core.SemaphoreContender;
import java.time.Duration;

/**
 * A lock scenario run on semaphores: the same threads, clients and loop as {@link Uncontended} or
 * {@link Contended}, but every acquire takes one permit of a semaphore (limit {@link SemaphoreContender#permits()})
 * instead of a lock, and only semaphore contenders run it. Uncontended: each thread on its own semaphore name;
 * contended: every thread of every client on one name, so at most the limit hold at once and the rest wait.
 */
public final class SemaphoreScenario implements Scenario {

    private final Scenario loop;
    private final String what;

    private SemaphoreScenario(Scenario loop, String what) {
        this.loop = loop;
        this.what = what;
    }

    /** {@code threads} threads of one client, each on its own semaphore name. */
    public static SemaphoreScenario uncontended(int threads) {
        return new SemaphoreScenario(new Uncontended(threads), threads + (threads == 1 ? " thread" : " threads")
                + ", own semaphore names, one client: acquire/release pairs of one permit");
    }

    /** {@code threads} threads over {@code clients} clients, all on one semaphore name. */
    public static SemaphoreScenario contended(int threads, int clients) {
        return new SemaphoreScenario(new Contended(threads, clients), threads + " threads over " + clients
                + " clients, one semaphore name: permits taken per second and acquire latency");
    }

    @Override
    public String id() {
        return idOf(loop.id());
    }

    /** The id of the semaphore scenario that runs the loop of the lock scenario {@code lockScenarioId}. */
    public static String idOf(String lockScenarioId) {
        return "semaphore-" + lockScenarioId;
    }

    @Override
    public String title() {
        return "semaphore, limit " + SemaphoreContender.DEFAULT_PERMITS + ": " + what;
    }

    @Override
    public boolean appliesTo(Contender contender) {
        return SemaphoreContender.is(contender);
    }

    @Override
    public Sample run(Contender contender, String namePrefix, Duration duration) throws Exception {
        return loop.run(contender, namePrefix + "sem:", duration);
    }
}
