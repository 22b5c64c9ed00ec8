package io.distlock.chaos;

import java.util.List;

/**
 * Which program a worker JVM runs (its main class) and the arguments it takes after the common ones (store URI,
 * label, name, register file, lease, hold range, acquire timeout, extend percentage): the lock workload's
 * {@link ChaosWorker}, or a leader, a semaphore holder or a SQL-fenced writer.
 *
 * @param mainClass the worker's main class
 * @param extraArgs arguments after the common ones
 */
record WorkerProgram(String mainClass, List<String> extraArgs) {

    /** The lock workload. */
    static final WorkerProgram LOCK = new WorkerProgram(ChaosWorker.class.getName(), List.of());

    /** The lock workload with {@code threads} threads per worker JVM, sharing one store. */
    static WorkerProgram lock(int threads) {
        return threads == 1 ? LOCK : new WorkerProgram(ChaosWorker.class.getName(), List.of(Integer.toString(threads)));
    }

    WorkerProgram {
        extraArgs = List.copyOf(extraArgs);
    }

    /** Whether the workers take permits of a semaphore (whose rows live in the permit table) rather than a lock. */
    boolean takesPermits() {
        return mainClass.equals(SemaphoreWorker.class.getName());
    }

    /** Whether {@code e} is a grant: an acquisition (lock or permit) or an election (leadership term). */
    static boolean isGrant(Event e) {
        return e.type().equals("ACQ_OK") || e.type().equals("ELECTED");
    }
}
