package io.distlock.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The semaphore checker on synthetic histories: the limit counted at every moment, told holders apart. */
class SemaphoreCheckerTest {

    private static Event e(String worker, long t, String type, long token) {
        return new Event(worker, t, type, token);
    }

    private static SemaphoreResult check(List<Event> events) {
        return SemaphoreChecker.check("s", "x", 2, events, 1, List.of(), -1, false, "");
    }

    @Test
    void twoHoldersAtOnceMeetALimitOfTwo() {
        SemaphoreResult r = check(List.of(
                e("a", 1, "ACQ_OK", 1), e("b", 2, "ACQ_OK", 2), e("a", 3, "REL_OK", 1), e("c", 4, "ACQ_OK", 3),
                e("b", 5, "REL_OK", 2), e("c", 6, "REL_OK", 3)));
        assertThat(r.maxHolders()).isEqualTo(2);
        assertThat(r.maxSilentHolders()).isEqualTo(2);
        assertThat(r.silentAboveLimit()).isZero();
        assertThat(r.meetsBars()).isTrue();
    }

    @Test
    void aThirdSilentHolderWithALimitOfTwoMissesTheBar() {
        SemaphoreResult r = check(List.of(
                e("a", 1, "ACQ_OK", 1), e("b", 2, "ACQ_OK", 2), e("c", 3, "ACQ_OK", 3), e("a", 4, "REL_OK", 1),
                e("b", 5, "REL_OK", 2), e("c", 6, "REL_OK", 3)));
        assertThat(r.maxSilentHolders()).isEqualTo(3);
        assertThat(r.silentAboveLimit()).isEqualTo(1);
        assertThat(r.meetsBars()).isFalse();
        assertThat(r.verdict()).isEqualTo("MISSED");
    }

    @Test
    void aFrozenHolderToldOfItsLossMayOverlapTwoNewerOnes() {
        SemaphoreResult r = check(List.of(
                e("a", 1, "ACQ_OK", 1), e("b", 2, "ACQ_OK", 2), e("c", 3, "ACQ_OK", 3), e("a", 4, "LOST_SIGNAL", 1),
                e("a", 5, "REL_LOST", 1), e("b", 6, "REL_OK", 2), e("c", 7, "REL_OK", 3)));
        assertThat(r.maxHolders()).isEqualTo(3);
        assertThat(r.maxSilentHolders()).isEqualTo(2);
        assertThat(r.silentAboveLimit()).isZero();
        assertThat(r.toldHolds()).isEqualTo(1);
        assertThat(r.meetsBars()).isTrue();
    }

    @Test
    void aHoldEndingWhenAnotherBeginsDoesNotCountTwice() {
        SemaphoreResult r = check(List.of(
                e("a", 1, "ACQ_OK", 1), e("b", 2, "ACQ_OK", 2), e("a", 3, "REL_OK", 1), e("c", 3, "ACQ_OK", 3),
                e("b", 4, "REL_OK", 2), e("c", 5, "REL_OK", 3)));
        assertThat(r.maxHolders()).isEqualTo(2);
    }

    @Test
    void aPermitTokenGrantedTwiceMissesTheBars() {
        SemaphoreResult r = check(List.of(
                e("a", 1, "ACQ_OK", 1), e("a", 2, "REL_OK", 1), e("b", 3, "ACQ_OK", 1), e("b", 4, "REL_OK", 1)));
        assertThat(r.tokensReissued()).isEqualTo(1);
        assertThat(r.meetsBars()).isFalse();
    }
}
