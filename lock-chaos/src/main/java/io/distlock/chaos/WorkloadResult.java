package io.distlock.chaos;

/**
 * The outcome of one run of a workload other than the lock's (leadership, semaphore, SQL fence): enough for the
 * suite's progress line, its totals and its own table in the report.
 */
interface WorkloadResult {

    /** The store under test. */
    String store();

    /** The fault. */
    String scenario();

    /** Faults injected. */
    int faults();

    /** Whether the run meets its workload's bars. */
    boolean meetsBars();

    /** Whether the run showed only violations its scenario is documented to allow. */
    boolean expectedUnsafe();

    /** What the run measured, in one line, for the progress output. */
    String summary();

    /** The run as one row of its workload's Markdown table. */
    String markdownRow();

    /** "met", "expected: unsafe by design", or "MISSED". */
    default String verdict() {
        if (!meetsBars()) {
            return "MISSED";
        }
        return expectedUnsafe() ? "expected: unsafe by design" : "met";
    }

    /** A cell of a Markdown row: {@code |} is replaced so a note cannot break the table. */
    static String cell(Object value) {
        return String.valueOf(value).replace("|", "/");
    }

    /** A duration cell in seconds, or "-". */
    static String seconds(java.time.Duration d) {
        return d == null ? "-" : String.format(java.util.Locale.ROOT, "%.2f s", d.toMillis() / 1000.0);
    }
}
