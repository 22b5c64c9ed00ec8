package io.distlock.chaos;

import java.util.List;

/**
 * The report's sections for the leadership, semaphore and SQL-fence workloads: a table each, with its own columns,
 * and what the columns mean. The lock workload's table is {@link ChaosReport}'s.
 */
final class WorkloadReport {

    private WorkloadReport() {
    }

    /** The section of {@code workload}: heading, table, definitions. */
    static String markdown(Workload workload, List<WorkloadResult> results) {
        StringBuilder md = new StringBuilder("\n## Workload: ").append(workload.title()).append("\n\n");
        md.append(switch (workload) {
            case LEADERSHIP -> LeadershipResult.HEADER;
            case SEMAPHORE -> SemaphoreResult.HEADER;
            default -> SqlFenceResult.HEADER;
        });
        for (WorkloadResult r : results) {
            md.append(r.markdownRow());
        }
        return md.append('\n').append(definitions(workload)).toString();
    }

    /** One line for the end of a run of {@code workload}. */
    static String summary(Workload workload, List<WorkloadResult> results) {
        long missed = results.stream().filter(r -> !r.meetsBars()).count();
        long expected = results.stream().filter(WorkloadResult::expectedUnsafe).count();
        return "chaos " + workload.cliName() + ": " + results.size() + " runs, "
                + results.stream().mapToLong(WorkloadResult::faults).sum() + " faults injected; " + missed
                + " runs missed their bars, " + expected + " showed their documented unsafe-by-design violations";
    }

    static String definitions(Workload workload) {
        return switch (workload) {
            case LEADERSHIP -> """
                    Each worker JVM campaigns with `store.leadership(name, listener)`; while its listener says it is \
                    elected it presents its term to the fenced register at once (a fenced read), then writes with \
                    its term's fencing token at random moments (fenced \
                    read, work, fenced write of the value plus one), without asking `isLeader()` first. A term lasts \
                    from `elected` to `revoked` (or to the leader's last event if it was killed); it is *told* if it \
                    ended by a loss (`revoked` without a step-down) or its lease fired the lost signal.

                    - **silent double leaders** (must be 0): pairs of terms of different workers at the same moment, \
                    neither told. **told double leaders**: one of them was told (a frozen leader outliving its term; \
                    the fence must stop its writes).
                    - **terms re-issued** (must be 0): elections with a term number already elected. **terms out of \
                    order** (must be 0): terms never told of a loss whose number is not above that of a term which \
                    ended before they began.
                    - **refused (ended terms)**: leader reads and writes the register refused because a higher term \
                    had been seen. **stale writes accepted** (must be 0): writes issued after a higher term was \
                    elected and still accepted. **lost updates** (must be 0).
                    """;
            case SEMAPHORE -> """
                    Each worker JVM loops on a permit of `store.semaphore(name, 2)`: acquire (waiting at most twice \
                    the lease), hold for a random time (`extend()` in half of the holds), release, think. At every \
                    moment the checker counts the permits held (acquisition to release; a killed holder's ends at \
                    its last event), and those whose holders were never told of a loss (lost signal, `extend()` \
                    false, `LockLostException` at release).

                    - **max holders at once**: told or not (a frozen holder told later may overlap its successors). \
                    **max silent holders at once** must be at most the limit; **silent holders above the limit** \
                    (must be 0): acquisitions that made the silent holders more than the limit.
                    - **fencing tokens re-issued** (must be 0): permits granted a token an earlier permit had.
                    """;
            default -> """
                    Each worker JVM holds the lock of the store under test and, in one transaction on the \
                    database, calls `SqlFence.table(t).advance(connection, "counter:1", token)` (`t` a fence \
                    table of the run's own), reads the counter row, works, writes the value read plus one and \
                    commits. Part of the hold's work comes before the transaction, so a pause lands before \
                    `advance` as well as inside the transaction (the fence row then stays locked until the frozen \
                    holder commits, and the next holder waits for it). The database is the run's own server when the \
                    lock store is that database, else the shared one (tables of the run's own, dropped after).

                    - **refused by the fence**: transactions `advance` refused with `StaleFenceException`. **other \
                    SQL errors**: rolled back before the commit (lock-wait timeouts, connection errors).
                    - **stale writes accepted** (must be 0): commits that completed although, when they were issued, \
                    a commit with a higher token had already completed for the resource.
                    - **counter** / **lost updates** (must be 0): the counter's final value, and the commits whose \
                    increment it lacks (commits less the value; a commit of unknown outcome may hide one).
                    - The lock columns are the lock table's, from the same holds.
                    """;
        };
    }
}
