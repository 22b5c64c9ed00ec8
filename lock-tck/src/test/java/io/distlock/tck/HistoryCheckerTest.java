package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.tck.check.CriticalSection;
import io.distlock.tck.check.HistoryChecker;
import io.distlock.tck.check.HistoryReport;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The checker finds each kind of violation in synthetic histories, and none in a clean one. */
class HistoryCheckerTest {

    private static CriticalSection s(String lock, long enter, long exit, long token) {
        return new CriticalSection(lock, "c", enter, exit, token);
    }

    @Test
    void cleanHistoryHasNoViolations() {
        HistoryReport r = HistoryChecker.check(List.of(s("a", 0, 10, 1), s("a", 10, 20, 2), s("b", 5, 15, 1)), 3, 3);
        assertThat(r.isClean()).as(r.toString()).isTrue();
    }

    @Test
    void overlappingSectionsAreReported() {
        HistoryReport r = HistoryChecker.check(List.of(s("a", 0, 10, 1), s("a", 9, 20, 2)));
        assertThat(r.overlaps()).hasSize(1);
        assertThat(r.isClean()).isFalse();
    }

    @Test
    void sectionNestedInsideALongOneIsAnOverlap() {
        HistoryReport r = HistoryChecker.check(List.of(s("a", 0, 100, 1), s("a", 10, 20, 2), s("a", 30, 40, 3)));
        assertThat(r.overlaps()).hasSize(2);
    }

    @Test
    void lostUpdatesAreCounted() {
        HistoryReport r = HistoryChecker.check(List.of(s("a", 0, 10, 1), s("a", 10, 20, 2)), 2, 1);
        assertThat(r.lostUpdates()).isEqualTo(1);
    }

    @Test
    void tokensThatDoNotIncreaseAreReported() {
        HistoryReport r = HistoryChecker.check(List.of(s("a", 0, 10, 5), s("a", 10, 20, 5), s("a", 20, 30, 4)));
        assertThat(r.tokenViolations()).hasSize(2);
        assertThat(r.overlaps()).isEmpty();
    }

    @Test
    void everyOverlappingPairIsCountedAndThoseAHolderWasToldOfApart() {
        CriticalSection told = new CriticalSection("a", "c", 0, 100, 1, true);
        HistoryReport r = HistoryChecker.check(List.of(told, s("a", 10, 50, 2), s("a", 20, 60, 3)));
        assertThat(r.overlaps()).as("2 and 3 overlap, neither told").hasSize(1);
        assertThat(r.toldOverlaps()).as("1 overlaps 2 and 3, and was told").hasSize(2);
    }

    @Test
    void aTokenGrantedTwiceIsReissued() {
        HistoryReport r = HistoryChecker.check(List.of(s("a", 0, 10, 7), s("a", 10, 20, 8), s("a", 20, 30, 7)));
        assertThat(r.reissuedTokens()).isEqualTo(1);
        assertThat(r.isClean()).isFalse();
    }

    @Test
    void sectionLinesRoundTrip() {
        CriticalSection section = new CriticalSection("name with spaces", "jvmA", 1, 2, 3);
        assertThat(CriticalSection.parse(section.toLine())).isEqualTo(section);
        CriticalSection told = new CriticalSection("n", "jvmA", 1, 2, 3, true);
        assertThat(CriticalSection.parse(told.toLine())).isEqualTo(told);
    }
}
