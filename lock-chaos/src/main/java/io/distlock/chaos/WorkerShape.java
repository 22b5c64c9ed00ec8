package io.distlock.chaos;

import java.time.Duration;
import java.util.List;

/**
 * How the workers of a run behave: the range of their hold times, how often they call {@code extend()} during a
 * hold, and a command prefix that wraps their JVM (for example {@code faketime} for a wrong wall clock).
 *
 * @param holdMin shortest hold
 * @param holdMax longest hold
 * @param extendPercent percentage of holds in which the worker calls extend() at a random moment
 * @param prefix words put before the {@code java} command, empty for none
 */
record WorkerShape(Duration holdMin, Duration holdMax, int extendPercent, List<String> prefix) {

    WorkerShape {
        if (holdMin.isNegative() || holdMax.compareTo(holdMin) < 0) {
            throw new IllegalArgumentException("hold range must be 0 <= min <= max, got " + holdMin + ".." + holdMax);
        }
        if (extendPercent < 0 || extendPercent > 100) {
            throw new IllegalArgumentException("extend percentage must be 0..100, got " + extendPercent);
        }
        prefix = List.copyOf(prefix);
    }

    /** The suite's default: holds from 5 ms to half the lease, extend() in half of them. */
    static WorkerShape forLease(Duration lease) {
        return new WorkerShape(Duration.ofMillis(5), lease.dividedBy(2), 50, List.of());
    }

    /** The same shape with the workers' JVMs started behind {@code words}. */
    WorkerShape wrappedIn(List<String> words) {
        return new WorkerShape(holdMin, holdMax, extendPercent, words);
    }
}
