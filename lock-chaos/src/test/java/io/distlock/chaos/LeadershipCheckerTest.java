package io.distlock.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.tck.check.FencedRegister;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The leadership checker on synthetic histories with known violations, and on clean ones. */
class LeadershipCheckerTest {

    private static final FencedRegister.State CLEAN = new FencedRegister.State(2, 2, 2, 0, 0);

    private static Event e(String worker, long t, String type, long token) {
        return new Event(worker, t, type, token);
    }

    private static LeadershipResult check(List<Event> events) {
        return LeadershipChecker.check("s", "x", events, CLEAN, 1, List.of(), -1, false, "");
    }

    @Test
    void successiveTermsWithTheirWritesMeetTheBars() {
        LeadershipResult r = check(List.of(
                e("a", 1, "ELECTED", 1), e("a", 2, "WRITE_OK", 1), e("a", 3, "REVOKED", 1),
                e("b", 4, "ELECTED", 2), e("b", 5, "WRITE_OK", 2), e("b", 6, "STEPPED_DOWN", 2)));
        assertThat(r.elections()).isEqualTo(2);
        assertThat(r.silentDoubleLeaders()).isZero();
        assertThat(r.writesAccepted()).isEqualTo(2);
        assertThat(r.meetsBars()).isTrue();
    }

    @Test
    void twoLeadersAtOnceNeitherToldAreSilentDoubleLeaders() {
        LeadershipResult r = check(List.of(
                e("a", 1, "ELECTED", 1), e("b", 2, "ELECTED", 2), e("a", 3, "STEPPED_DOWN", 1),
                e("b", 4, "STEPPED_DOWN", 2)));
        assertThat(r.silentDoubleLeaders()).isEqualTo(1);
        assertThat(r.meetsBars()).isFalse();
        assertThat(r.verdict()).isEqualTo("MISSED");
    }

    @Test
    void aKilledLeaderStillLeadsUntilItsLastEventSoAnOverlapWithItIsSilent() {
        LeadershipResult r = check(List.of(
                e("a", 1, "ELECTED", 1), e("a", 5, "WRITE_OK", 1), e("b", 3, "ELECTED", 2), e("b", 6, "REVOKED", 2)));
        assertThat(r.silentDoubleLeaders()).as("a never told, b told only after a's last write").isZero();
        assertThat(r.toldDoubleLeaders()).isEqualTo(1);
        LeadershipResult silent = check(List.of(
                e("a", 1, "ELECTED", 1), e("a", 5, "WRITE_OK", 1), e("b", 3, "ELECTED", 2),
                e("b", 6, "STEPPED_DOWN", 2)));
        assertThat(silent.silentDoubleLeaders()).isEqualTo(1);
    }

    @Test
    void aFrozenLeaderToldOfItsLossAfterANewElectionIsAToldDoubleLeaderAndItsRefusedWritesAreCounted() {
        LeadershipResult r = check(List.of(
                e("a", 1, "ELECTED", 1), e("b", 5, "ELECTED", 2), e("b", 6, "WRITE_OK", 2),
                e("a", 7, "WRITE_REFUSED", 1), e("a", 8, "LOST_SIGNAL", 1), e("a", 9, "REVOKED", 1),
                e("b", 10, "STEPPED_DOWN", 2)));
        assertThat(r.silentDoubleLeaders()).isZero();
        assertThat(r.toldDoubleLeaders()).isEqualTo(1);
        assertThat(r.refusals()).isEqualTo(1);
        assertThat(r.meetsBars()).isTrue();
    }

    @Test
    void aWriteOfAnEndedTermAcceptedAfterANewElectionIsStale() {
        LeadershipResult r = check(List.of(
                e("a", 1, "ELECTED", 1), e("b", 5, "ELECTED", 2), e("a", 6, "WRITE_OK", 1), e("a", 7, "REVOKED", 1),
                e("b", 8, "STEPPED_DOWN", 2)));
        assertThat(r.staleWritesAccepted()).isEqualTo(1);
        assertThat(r.meetsBars()).isFalse();
    }

    @Test
    void aTermNumberElectedTwiceIsReissuedAndALowerTermAfterAHigherOneIsOutOfOrder() {
        LeadershipResult reissued = check(List.of(
                e("a", 1, "ELECTED", 4), e("a", 2, "REVOKED", 4), e("b", 3, "ELECTED", 4), e("b", 4, "REVOKED", 4)));
        assertThat(reissued.termsReissued()).isEqualTo(1);
        assertThat(reissued.meetsBars()).isFalse();
        LeadershipResult backwards = check(List.of(
                e("a", 1, "ELECTED", 5), e("a", 2, "STEPPED_DOWN", 5), e("b", 3, "ELECTED", 3),
                e("b", 4, "STEPPED_DOWN", 3)));
        assertThat(backwards.termsOutOfOrder()).isEqualTo(1);
        assertThat(backwards.meetsBars()).isFalse();
    }

    @Test
    void aTermReportedLateByAFrozenCampaignerThatIsThenToldIsNotOutOfOrder() {
        LeadershipResult r = check(List.of(
                e("b", 1, "ELECTED", 6), e("b", 2, "STEPPED_DOWN", 6), e("a", 3, "ELECTED", 5),
                e("a", 4, "READ_REFUSED", 5), e("a", 5, "REVOKED", 5)));
        assertThat(r.termsOutOfOrder()).isZero();
        assertThat(r.meetsBars()).isTrue();
    }

    @Test
    void aFaultThatKilledTheLeaderCountsAsMidTermUntilTheNextElection() {
        LeadershipResult r = LeadershipChecker.check("s", "x", List.of(
                e("a", 10, "ELECTED", 1), e("a", 20, "WRITE_OK", 1), e("b", 50, "ELECTED", 2),
                e("b", 60, "STEPPED_DOWN", 2)), CLEAN, 3, List.of(30L, 55L, 70L), -1, false, "");
        assertThat(r.faultsMidTerm()).as("30: a killed after its last write; 55: b leads; 70: nobody").isEqualTo(2);
        assertThat(r.silentDoubleLeaders()).isZero();
    }

    @Test
    void silentDoubleLeadersWhereTheFaultIsUnsafeByDesignAreShownAsExpected() {
        LeadershipResult r = LeadershipChecker.check("s", "x", List.of(
                e("a", 1, "ELECTED", 1), e("b", 2, "ELECTED", 2), e("a", 3, "STEPPED_DOWN", 1),
                e("b", 4, "STEPPED_DOWN", 2)), CLEAN, 1, List.of(), -1, true, "");
        assertThat(r.meetsBars()).isTrue();
        assertThat(r.verdict()).isEqualTo("expected: unsafe by design");
    }
}
