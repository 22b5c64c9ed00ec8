package io.distlock.chaos.explore;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The plan of a {@code server-restore-released} run, on its own: what it copies and when it kills. */
class RevivalTest {

    private final List<String> did = new ArrayList<>();
    private final Revival revival = new Revival(() -> did.add("copy"), () -> did.add("kill"));

    @Test
    void copiesTheFirstGrantAfterItsStepAndKillsOnceAListingBegunAfterTheCopyNoLongerShowsIt() {
        revival.granted(7); // before the step: not copied
        revival.arm();
        long before = System.nanoTime();
        revival.granted(8);
        revival.granted(9); // a later grant: the first one is the copy's
        revival.listed(Set.of(), before); // a listing begun before the copy proves nothing
        revival.listed(Set.of(8L), System.nanoTime());
        assertThat(did).containsExactly("copy");
        revival.listed(Set.of(9L), System.nanoTime());
        assertThat(did).containsExactly("copy", "kill");
        assertThat(revival.end()).isTrue();
    }

    @Test
    void aPlanNeverArmedDoesNothingAndEndsAtOnce() throws InterruptedException {
        revival.granted(8);
        revival.listed(Set.of(), System.nanoTime());
        revival.awaitKill(Duration.ofSeconds(10));
        assertThat(did).isEmpty();
        assertThat(revival.end()).isFalse();
    }

    @Test
    void anArmedPlanWithoutAGrantWaitsOnlyItsBound() throws InterruptedException {
        revival.arm();
        long start = System.nanoTime();
        revival.awaitKill(Duration.ofMillis(200));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
        assertThat(revival.end()).isFalse();
        revival.granted(8); // over: nothing more is copied
        assertThat(did).isEmpty();
    }
}
