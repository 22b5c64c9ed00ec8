package io.distlock.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The SQL-fence checker on synthetic histories: stale commits and lost updates are found. */
class SqlFenceCheckerTest {

    private static Event e(String worker, long t, String type, long token) {
        return new Event(worker, t, type, token);
    }

    private static SqlFenceResult check(List<Event> events, long counter) {
        return SqlFenceChecker.check("s", "db", "x", events, counter, 1, List.of(), -1, false, "");
    }

    @Test
    void commitsInTokenOrderWithTheCounterAtTheirNumberMeetTheBars() {
        SqlFenceResult r = check(List.of(
                e("a", 1, "ACQ_OK", 1), e("a", 2, "SQL_COMMIT_INVOKE", 1), e("a", 3, "SQL_COMMIT_OK", 1),
                e("a", 4, "REL_OK", 1), e("b", 5, "ACQ_OK", 2), e("b", 6, "SQL_COMMIT_INVOKE", 2),
                e("b", 7, "SQL_COMMIT_OK", 2), e("b", 8, "REL_OK", 2)), 2);
        assertThat(r.commits()).isEqualTo(2);
        assertThat(r.staleCommits()).isZero();
        assertThat(r.lostUpdates()).isZero();
        assertThat(r.meetsBars()).isTrue();
    }

    @Test
    void aCommitIssuedAfterAHigherTokenCommittedIsAStaleWriteAccepted() {
        SqlFenceResult r = check(List.of(
                e("a", 1, "ACQ_OK", 1), e("b", 4, "ACQ_OK", 2), e("b", 5, "SQL_COMMIT_INVOKE", 2),
                e("b", 6, "SQL_COMMIT_OK", 2), e("a", 7, "SQL_COMMIT_INVOKE", 1), e("a", 8, "SQL_COMMIT_OK", 1),
                e("a", 9, "REL_LOST", 1), e("b", 10, "REL_OK", 2)), 2);
        assertThat(r.staleCommits()).isEqualTo(1);
        assertThat(r.meetsBars()).isFalse();
    }

    @Test
    void aStaleHolderWhoseCommitWasIssuedBeforeTheNewerCommitIsNotStale() {
        SqlFenceResult r = check(List.of(
                e("a", 1, "ACQ_OK", 1), e("b", 4, "ACQ_OK", 2), e("a", 5, "SQL_COMMIT_INVOKE", 1),
                e("a", 6, "SQL_COMMIT_OK", 1), e("b", 7, "SQL_COMMIT_INVOKE", 2), e("b", 8, "SQL_COMMIT_OK", 2),
                e("a", 9, "REL_LOST", 1), e("b", 10, "REL_OK", 2)), 2);
        assertThat(r.staleCommits()).as("the fence row serialised them in token order").isZero();
    }

    @Test
    void aCounterBelowTheCommitsCountsLostUpdatesAndRefusalsAreCounted() {
        SqlFenceResult r = check(List.of(
                e("a", 1, "ACQ_OK", 1), e("a", 2, "SQL_COMMIT_INVOKE", 1), e("a", 3, "SQL_COMMIT_OK", 1),
                e("a", 4, "REL_OK", 1), e("b", 5, "ACQ_OK", 2), e("b", 6, "SQL_COMMIT_INVOKE", 2),
                e("b", 7, "SQL_COMMIT_OK", 2), e("b", 8, "REL_OK", 2), e("c", 9, "ACQ_OK", 3),
                e("c", 10, "SQL_REFUSED", 3), e("c", 11, "REL_OK", 3)), 1);
        assertThat(r.lostUpdates()).isEqualTo(1);
        assertThat(r.refusals()).isEqualTo(1);
        assertThat(r.meetsBars()).isFalse();
    }
}
