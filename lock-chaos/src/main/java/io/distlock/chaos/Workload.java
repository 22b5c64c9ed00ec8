package io.distlock.chaos;

import java.util.Locale;

/**
 * What the workers of a run do: contend for the lock (the suite's original workload), campaign for leadership and
 * write as leader, hold permits of a semaphore of limit {@value #SEMAPHORE_LIMIT}, or hold the lock and write through
 * {@code SqlFence} to PostgreSQL or MariaDB. Each has its own checker and its own table in the report.
 */
enum Workload {

    /** Acquire, fenced read, hold, fenced write, release (the fault table's workload). */
    LOCK("lock"),

    /**
     * The lock's workload with {@value #THREADS_PER_WORKER} threads in each worker JVM sharing one store, so releases
     * hand the lock over to a queued thread of the same client and the faults land on hand-overs too.
     */
    LOCK_THREADS("lock, " + Workload.THREADS_PER_WORKER + " threads per worker JVM (local hand-overs)"),

    /** Campaign with {@code store.leadership}; the leader writes to the fenced register with its term. */
    LEADERSHIP("leadership"),

    /** Acquire a permit of {@code store.semaphore(name, 2)}, hold, release. */
    SEMAPHORE("semaphore"),

    /** The lock, protecting a counter row of PostgreSQL through {@code SqlFence}. */
    SQL_FENCE_POSTGRESQL("fenced writes to PostgreSQL through SqlFence"),

    /** The lock, protecting a counter row of MariaDB through {@code SqlFence}. */
    SQL_FENCE_MARIADB("fenced writes to MariaDB through SqlFence");

    /** Threads per worker JVM of the {@link #LOCK_THREADS} workload. */
    static final int THREADS_PER_WORKER = 2;

    /** The semaphore workload's limit. */
    static final int SEMAPHORE_LIMIT = 2;

    private final String title;

    Workload(String title) {
        this.title = title;
    }

    /** Whether the lock's checker and table serve this workload (the lock's own, or with threads per worker). */
    boolean isLock() {
        return this == LOCK || this == LOCK_THREADS;
    }

    /** Lock-workload threads in each worker JVM. */
    int threadsPerWorker() {
        return this == LOCK_THREADS ? THREADS_PER_WORKER : 1;
    }

    /**
     * The name on the command line: lock, lock-threads, leadership, semaphore, sql-fence-postgresql, sql-fence-mariadb.
     */
    String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** What the workload is, for the report's headings. */
    String title() {
        return title;
    }

    /** The workload called {@code cliName}. */
    static Workload named(String cliName) {
        for (Workload w : values()) {
            if (w.cliName().equals(cliName)) {
                return w;
            }
        }
        throw new IllegalArgumentException("unknown workload '" + cliName + "'; known: "
                + java.util.Arrays.stream(values()).map(Workload::cliName).toList());
    }

    /** The database of a SQL-fence workload, or null. */
    FenceDatabase.Kind database() {
        return switch (this) {
            case SQL_FENCE_POSTGRESQL -> FenceDatabase.Kind.POSTGRESQL;
            case SQL_FENCE_MARIADB -> FenceDatabase.Kind.MARIADB;
            default -> null;
        };
    }
}
