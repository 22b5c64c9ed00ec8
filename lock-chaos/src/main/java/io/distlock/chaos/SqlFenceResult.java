package io.distlock.chaos;

import java.time.Duration;

/**
 * The numbers of one SQL-fence run: the lock's own columns (the lock store's holds) and the database's.
 *
 * @param store the lock store under test
 * @param database where the fenced writes went (which server, the run's own or the shared one)
 * @param scenario the fault
 * @param faults faults injected
 * @param faultsMidHold faults that started while some worker held the lock
 * @param acquiredOk acquisitions that returned a lease
 * @param silentOverlaps pairs of holds at once where neither holder was told
 * @param toldOverlaps pairs of holds at once where one holder was told
 * @param tokensReissued acquisitions granted a token an earlier acquisition already had
 * @param commits transactions committed
 * @param commitsUnknown commits that failed with an exception (outcome unknown to the worker)
 * @param refusals transactions refused by {@code SqlFence.advance} (StaleFenceException)
 * @param sqlErrors other SQL errors before the commit (rolled back)
 * @param staleCommits commits with a token lower than one already committed for the resource when they were issued
 * @param counter the counter row's final value
 * @param lostUpdates commits whose increment is missing from the counter (commits less the final value)
 * @param recovery fault end to the next acquisition, or null
 * @param unsafeByDesign whether the store and fault are documented unsafe for overlaps
 * @param note what the run shows
 */
record SqlFenceResult(String store, String database, String scenario, int faults, long faultsMidHold,
        long acquiredOk, long silentOverlaps, long toldOverlaps, long tokensReissued, long commits,
        long commitsUnknown, long refusals, long sqlErrors, long staleCommits, long counter, long lostUpdates,
        Duration recovery, boolean unsafeByDesign, String note) implements WorkloadResult {

    /** The table's header and separator lines. */
    static final String HEADER = "| lock store | database | scenario | faults (mid-hold) | acquired "
            + "| silent overlaps | told overlaps | fencing tokens re-issued | commits (unknown) "
            + "| refused by the fence | other SQL errors "
            + "| stale writes accepted | counter | lost updates | recovery | bars | note |\n"
            + "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";

    @Override
    public boolean meetsBars() {
        return commits > 0 && staleCommits == 0 && lostUpdates == 0 && tokensReissued == 0
                && (unsafeByDesign || silentOverlaps == 0);
    }

    @Override
    public boolean expectedUnsafe() {
        return unsafeByDesign && silentOverlaps + toldOverlaps > 0 && meetsBars();
    }

    @Override
    public String summary() {
        return faults + " faults, " + faultsMidHold + " mid-hold, " + acquiredOk + " acquisitions, " + commits
                + " commits, " + refusals + " refused by the fence, " + staleCommits + " stale writes accepted, "
                + lostUpdates + " lost updates, " + silentOverlaps + " silent overlaps";
    }

    @Override
    public String markdownRow() {
        return "| " + store + " | " + database + " | " + scenario + " | " + faults + " (" + faultsMidHold + ") | "
                + acquiredOk + " | " + silentOverlaps + " | " + toldOverlaps + " | " + tokensReissued + " | "
                + commits + " (" + commitsUnknown + ") | " + refusals + " | " + sqlErrors + " | " + staleCommits
                + " | " + counter + " | " + lostUpdates + " | " + WorkloadResult.seconds(recovery) + " | "
                + verdict() + " | " + WorkloadResult.cell(note) + " |\n";
    }

    /** A run that broke down: no numbers, the reason in the note. */
    static SqlFenceResult failed(String store, String database, String scenario, String why) {
        return new SqlFenceResult(store, database, scenario, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, false,
                "run failed: " + why);
    }
}
