package io.distlock.chaos;

import java.time.Duration;

/**
 * The numbers of one semaphore run.
 *
 * @param store the store under test
 * @param scenario the fault
 * @param limit the semaphore's permits
 * @param operations acquisition attempts
 * @param faults faults injected
 * @param faultsMidHold faults that started while some worker held a permit
 * @param acquiredOk acquisitions that returned a permit
 * @param acquiredFail acquisitions that timed out (every permit taken)
 * @param acquiredUnknown acquisitions that raised StoreUnavailableException
 * @param maxHolders the most holds at one moment, told or not
 * @param maxSilentHolders the most holds at one moment whose holders were never told of a loss
 * @param silentAboveLimit acquisitions that made the silent holders more than the limit
 * @param toldHolds holds whose holder was told the permit was lost (signal, extend false, or at release)
 * @param tokensReissued acquisitions granted a fencing token an earlier permit of the name already had
 * @param recovery fault end to the next acquisition, or null
 * @param unsafeByDesign whether the store and fault are documented unsafe (holders above the limit then expected)
 * @param note what the run shows
 */
record SemaphoreResult(String store, String scenario, int limit, long operations, int faults, long faultsMidHold,
        long acquiredOk, long acquiredFail, long acquiredUnknown, long maxHolders, long maxSilentHolders,
        long silentAboveLimit, long toldHolds, long tokensReissued, Duration recovery, boolean unsafeByDesign,
        String note) implements WorkloadResult {

    /** The table's header and separator lines. */
    static final String HEADER = "| store | scenario | limit | ops | faults (mid-hold) | acquired ok / fail / unknown "
            + "| max holders at once | max silent holders at once | silent holders above the limit | told holds | "
            + "fencing tokens re-issued | recovery | bars | note |\n"
            + "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";

    @Override
    public boolean meetsBars() {
        return acquiredOk > 0 && tokensReissued == 0 && (unsafeByDesign || silentAboveLimit == 0);
    }

    @Override
    public boolean expectedUnsafe() {
        return unsafeByDesign && maxHolders > limit && meetsBars();
    }

    @Override
    public String summary() {
        return faults + " faults, " + faultsMidHold + " mid-hold, " + acquiredOk + " permits, max " + maxHolders
                + " holders, max " + maxSilentHolders + " silent, " + silentAboveLimit + " silent above the limit, "
                + tokensReissued + " tokens re-issued";
    }

    @Override
    public String markdownRow() {
        return "| " + store + " | " + scenario + " | " + limit + " | " + operations + " | " + faults + " ("
                + faultsMidHold + ") | " + acquiredOk + " / " + acquiredFail + " / " + acquiredUnknown + " | "
                + maxHolders + " | " + maxSilentHolders + " | " + silentAboveLimit + " | " + toldHolds + " | "
                + tokensReissued + " | " + WorkloadResult.seconds(recovery) + " | " + verdict() + " | "
                + WorkloadResult.cell(note) + " |\n";
    }

    /** A run that broke down: no numbers, the reason in the note. */
    static SemaphoreResult failed(String store, String scenario, int limit, String why) {
        return new SemaphoreResult(store, scenario, limit, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, false,
                "run failed: " + why);
    }
}
