package io.distlock.chaos;

import java.time.Duration;

/**
 * The numbers of one fault run, as a Jepsen report gives them.
 *
 * @param store the store under test
 * @param scenario the fault
 * @param operations acquisition attempts
 * @param faults faults injected
 * @param faultsMidHold faults that started while some worker held the lock
 * @param acquiredOk acquisitions that returned a lease
 * @param acquiredFail acquisitions that timed out (the lock was busy)
 * @param acquiredUnknown acquisitions that raised StoreUnavailableException (outcome unknown to the client)
 * @param undetectedOverlaps pairs of holds on the lock at the same time where neither holder was ever told its lease
 *        was lost: mutual exclusion broken silently
 * @param detectedOverlaps pairs of holds at the same time where the earlier holder was told (lost signal or
 *        LockLostException at release): the fencing token is what kept the resource safe
 * @param lostUpdates accepted writes that overwrote an update they had not read
 * @param fenceRejections reads and writes the fenced resource refused because a higher token had been seen
 * @param staleWritesAccepted writes accepted after a higher token had been granted to another client
 * @param tokensReissued acquisitions granted a fencing token an earlier acquisition of the same lock already had
 * @param recovery time from the end of the fault to the next successful acquisition, or null if not measured
 * @param unsafeByDesign whether this scenario is documented as unsafe for this store (overlaps are expected)
 * @param note what the run shows, in a sentence
 */
public record ChaosResult(String store, String scenario, long operations, int faults, long faultsMidHold,
        long acquiredOk, long acquiredFail, long acquiredUnknown, long undetectedOverlaps, long detectedOverlaps,
        long lostUpdates, long fenceRejections, long staleWritesAccepted, long tokensReissued, Duration recovery,
        boolean unsafeByDesign, String note) {

    /**
     * Whether the run meets the bars: no stale write accepted, no lost update, no token re-issued, and no silent
     * overlap unless the scenario is unsafe by design for the store (then overlaps are expected and shown).
     */
    public boolean meetsBars() {
        return staleWritesAccepted == 0 && lostUpdates == 0 && tokensReissued == 0
                && (unsafeByDesign || undetectedOverlaps == 0) && acquiredOk > 0;
    }

    /**
     * Whether the run shows the violations its scenario is documented to allow (overlapping holds, silent or told at
     * release), and only those.
     */
    public boolean expectedUnsafe() {
        return unsafeByDesign && undetectedOverlaps + detectedOverlaps > 0 && meetsBars();
    }

    /** A failed run: no numbers, the reason in the note. */
    static ChaosResult failed(String store, String scenario, String why) {
        return new ChaosResult(store, scenario, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, false, "run failed: " + why);
    }
}
