package io.distlock.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.tck.check.FencedRegister;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The checker on synthetic histories with known violations, and on a clean one. */
class ChaosCheckerTest {

    private static final FencedRegister.State CLEAN = new FencedRegister.State(3, 3, 3, 0, 0);

    private static Event e(String worker, long t, String type, long token) {
        return new Event(worker, t, type, token);
    }

    private static ChaosResult check(List<Event> events) {
        return ChaosChecker.check("s", "x", events, CLEAN, 1, -1, false, "");
    }

    @Test
    void aCleanHistoryMeetsTheBars() {
        ChaosResult r = check(List.of(
                e("a", 0, "ACQ_INVOKE", 0), e("a", 1, "ACQ_OK", 1), e("a", 2, "WRITE_OK", 1), e("a", 3, "REL_OK", 1),
                e("b", 0, "ACQ_INVOKE", 0), e("b", 4, "ACQ_OK", 2), e("b", 5, "WRITE_OK", 2), e("b", 6, "REL_OK", 2)));
        assertThat(r.operations()).isEqualTo(2);
        assertThat(r.acquiredOk()).isEqualTo(2);
        assertThat(r.undetectedOverlaps()).isZero();
        assertThat(r.detectedOverlaps()).isZero();
        assertThat(r.staleWritesAccepted()).isZero();
        assertThat(r.meetsBars()).isTrue();
    }

    @Test
    void overlappingHoldsNobodyWasToldAboutAreSilentOverlaps() {
        ChaosResult r = check(List.of(
                e("a", 1, "ACQ_OK", 1), e("b", 2, "ACQ_OK", 2), e("a", 3, "REL_OK", 1), e("b", 4, "REL_OK", 2)));
        assertThat(r.undetectedOverlaps()).isEqualTo(1);
        assertThat(r.meetsBars()).isFalse();
    }

    @Test
    void overlapsWhereTheStaleHolderWasToldAreCountedApart() {
        ChaosResult r = check(List.of(
                e("a", 1, "ACQ_OK", 1), e("b", 5, "ACQ_OK", 2), e("a", 6, "LOST_SIGNAL", 1),
                e("a", 7, "WRITE_REFUSED", 1), e("a", 8, "REL_LOST", 1), e("b", 9, "REL_OK", 2)));
        assertThat(r.undetectedOverlaps()).isZero();
        assertThat(r.detectedOverlaps()).isEqualTo(1);
        assertThat(r.fenceRejections()).isEqualTo(1);
        assertThat(r.meetsBars()).isTrue();
    }

    @Test
    void aWriteIssuedAfterAHigherTokenWasGrantedAndAcceptedIsStale() {
        ChaosResult r = check(List.of(
                e("a", 1, "ACQ_OK", 1), e("b", 5, "ACQ_OK", 2), e("a", 6, "WRITE_OK", 1), e("a", 8, "REL_LOST", 1)));
        assertThat(r.staleWritesAccepted()).isEqualTo(1);
        assertThat(r.meetsBars()).isFalse();
    }

    @Test
    void lostUpdatesComeFromTheRegister() {
        ChaosResult r = ChaosChecker.check("s", "x", List.of(e("a", 1, "ACQ_OK", 1), e("a", 2, "REL_OK", 1)),
                new FencedRegister.State(1, 1, 2, 0, 1), 1, -1, false, "");
        assertThat(r.lostUpdates()).isEqualTo(1);
        assertThat(r.meetsBars()).isFalse();
    }

    @Test
    void recoveryIsTheTimeToTheFirstAcquisitionAfterTheFault() {
        ChaosResult r = ChaosChecker.check("s", "x", List.of(e("a", 1_000_000_000L, "ACQ_OK", 1),
                e("b", 3_500_000_000L, "ACQ_OK", 2)), CLEAN, 1, 2_000_000_000L, false, "");
        assertThat(r.recovery().toMillis()).isEqualTo(1500);
    }

    @Test
    void aTokenGrantedTwiceForTheLockIsReissuedAndMissesTheBars() {
        ChaosResult r = check(List.of(
                e("a", 1, "ACQ_OK", 7), e("a", 2, "REL_OK", 7), e("b", 3, "ACQ_OK", 8), e("b", 4, "REL_OK", 8),
                e("a", 5, "ACQ_OK", 7), e("a", 6, "REL_OK", 7), e("b", 7, "ACQ_OK", 8), e("b", 8, "REL_OK", 8)));
        assertThat(r.tokensReissued()).isEqualTo(2);
        assertThat(r.undetectedOverlaps()).isZero();
        assertThat(r.meetsBars()).isFalse();
        assertThat(ChaosReport.verdict(r)).isEqualTo("MISSED");
    }

    @Test
    void aReissuedTokenMissesTheBarsEvenWhereOverlapsAreUnsafeByDesign() {
        ChaosResult r = ChaosChecker.check("s", "x", List.of(e("a", 1, "ACQ_OK", 1), e("a", 2, "REL_OK", 1),
                e("b", 3, "ACQ_OK", 1), e("b", 4, "REL_OK", 1)), CLEAN, 1, -1, true, "");
        assertThat(r.meetsBars()).isFalse();
    }

    @Test
    void silentOverlapsInAScenarioUnsafeByDesignAreShownAsExpected() {
        ChaosResult r = ChaosChecker.check("s", "x", List.of(
                e("a", 1, "ACQ_OK", 1), e("b", 2, "ACQ_OK", 2), e("a", 3, "REL_OK", 1), e("b", 4, "REL_OK", 2)),
                CLEAN, 1, -1, true, "");
        assertThat(r.undetectedOverlaps()).isEqualTo(1);
        assertThat(r.meetsBars()).isTrue();
        assertThat(ChaosReport.verdict(r)).isEqualTo("expected: unsafe by design");
    }

    @Test
    void anExtendThatFoundTheLeaseGoneTellsTheHolder() {
        ChaosResult r = check(List.of(
                e("a", 1, "ACQ_OK", 1), e("b", 5, "ACQ_OK", 2), e("a", 6, "EXT_LOST", 1),
                e("a", 8, "REL_LOST", 1), e("b", 9, "REL_OK", 2)));
        assertThat(r.undetectedOverlaps()).isZero();
        assertThat(r.detectedOverlaps()).isEqualTo(1);
    }

    @Test
    void faultsAreCountedMidHoldWhenTheyStartInsideSomeHold() {
        ChaosResult r = ChaosChecker.check("s", "x", List.of(
                e("a", 10, "ACQ_OK", 1), e("a", 20, "REL_OK", 1), e("b", 30, "ACQ_OK", 2), e("b", 40, "REL_OK", 2)),
                CLEAN, 3, List.of(15L, 25L, 35L), -1, false, "");
        assertThat(r.faultsMidHold()).isEqualTo(2);
    }

    @Test
    void aCrashOfTheHolderCountsMidHoldUntilTheLockWentToAnotherWorker() {
        // a is killed at 15 while holding (its last event is its read at 12); b gets the lock at 30, after a's lease
        ChaosResult r = ChaosChecker.check("s", "x", List.of(
                e("a", 10, "ACQ_OK", 1), e("a", 12, "READ_OK", 1), e("b", 30, "ACQ_OK", 2), e("b", 40, "REL_OK", 2)),
                CLEAN, 3, List.of(15L, 35L, 45L), -1, false, "");
        assertThat(r.faultsMidHold()).isEqualTo(2);
        assertThat(r.undetectedOverlaps()).isZero();
    }
}
