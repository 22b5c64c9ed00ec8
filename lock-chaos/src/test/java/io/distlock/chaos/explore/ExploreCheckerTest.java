package io.distlock.chaos.explore;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.chaos.ChaosChecker;
import io.distlock.chaos.Event;
import io.distlock.chaos.SemaphoreChecker;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The explorer's own checks on synthetic histories: a token the store holds for nobody alive, a waiter that slept
 * through room at the store, and what excuses a leftover (its holder told of trouble).
 */
class ExploreCheckerTest {

    private static final long MS = 1_000_000;
    private static final Duration TOLERANT = Duration.ofSeconds(9);
    private static final Duration PROMPT = Duration.ofSeconds(3);

    private static List<HolderObserver.Sample> held(long token, long fromMs, long toMs) {
        List<HolderObserver.Sample> samples = new java.util.ArrayList<>();
        for (long t = fromMs; t <= toMs; t += 100) {
            samples.add(new HolderObserver.Sample(t * MS, Set.of(token)));
        }
        return samples;
    }

    @Test
    void aTokenNoClientKnewThatTheStoreKeepsIsAnOrphan() {
        List<Event> events = List.of(new Event("A", 0, "ACQ_INVOKE", 0), new Event("A", 1000 * MS, "ACQ_UNKNOWN", 0));
        List<String> v = ExploreChecker.orphans(events, ChaosChecker.holds(events), held(7, 100, 5100), PROMPT,
                null, TOLERANT);
        assertThat(v).singleElement().asString().contains("token 7", "nobody alive", "never granted");
    }

    @Test
    void aTokenHeldWhileItsHolderHoldsItIsNot() {
        List<Event> events = List.of(new Event("A", 0, "ACQ_OK", 7), new Event("A", 6000 * MS, "REL_OK", 7));
        assertThat(ExploreChecker.orphans(events, ChaosChecker.holds(events), held(7, 100, 5900), PROMPT, null,
                TOLERANT))
                .isEmpty();
    }

    @Test
    void aLeftoverWhoseReleaseWentUnansweredMayLastItsLease() {
        List<Event> events = List.of(new Event("A", 0, "ACQ_OK", 7), new Event("A", 1000 * MS, "REL_UNKNOWN", 7));
        assertThat(ExploreChecker.orphans(events, ChaosChecker.holds(events), held(7, 100, 7000), PROMPT, null,
                TOLERANT))
                .isEmpty();
        assertThat(ExploreChecker.orphans(events, ChaosChecker.holds(events), held(7, 100, 11000), PROMPT, null,
                TOLERANT))
                .hasSize(1);
    }

    @Test
    void aWaiterThatSleepsThroughRoomAtTheStoreMissedAWakeUp() {
        List<Event> events = List.of(new Event("B", 0, "ACQ_INVOKE", 0), new Event("B", 30_000 * MS, "ACQ_FAIL", 0));
        List<HolderObserver.Sample> free = new java.util.ArrayList<>();
        for (long t = 0; t <= 30_000; t += 100) {
            free.add(new HolderObserver.Sample(t * MS, Set.of()));
        }
        assertThat(ExploreChecker.missedWakeUps(events, free, 1, ExploreChecker.WAKE_UP)).singleElement().asString()
                .contains("B waited", "ACQ_FAIL");
        assertThat(ExploreChecker.missedWakeUps(events, held(3, 0, 30_000), 1, ExploreChecker.WAKE_UP)).isEmpty();
    }

    @Test
    void aHolderToldOnlyAfterTheNextGrantOverlapsIt() {
        List<Event> late = ExploreChecker.invalidAsTold(List.of(new Event("A", 0, "ACQ_OK", 7),
                new Event("B", 2000 * MS, "ACQ_OK", 8), new Event("A", 3000 * MS, "LOST_SIGNAL", 7),
                new Event("A", 3100 * MS, "REL_LOST", 7), new Event("B", 4000 * MS, "REL_OK", 8)));
        assertThat(SemaphoreChecker.sweep(ExploreChecker.untilTold(ChaosChecker.holds(late), late), 1).aboveLimit())
                .isPositive();
        List<Event> early = ExploreChecker.invalidAsTold(List.of(new Event("A", 0, "ACQ_OK", 7),
                new Event("A", 1500 * MS, "INVALID", 7), new Event("B", 2000 * MS, "ACQ_OK", 8),
                new Event("A", 3100 * MS, "REL_LOST", 7), new Event("B", 4000 * MS, "REL_OK", 8)));
        assertThat(SemaphoreChecker.sweep(ExploreChecker.untilTold(ChaosChecker.holds(early), early), 1).aboveLimit())
                .isZero();
    }

    /**
     * The shape of {@code zookeeper/lock/26/server-restore-mid}: B was granted before the server was restored from an
     * older copy, was told its lease was lost (invalid, then the lost-lease signal), A3 was granted a larger token and
     * never wrote, and B's last write, issued after it had been told, was accepted by the register. That write is the
     * scenario acting on a lease the store had told it was lost, not a lease that failed; an untold holder's stale
     * write still counts.
     */
    @Test
    void aWriteIssuedAfterItsHolderWasToldOfTheLossIsNotTheStoresStaleWrite() {
        List<Event> told = ExploreChecker.invalidAsTold(List.of(new Event("B", 0, "ACQ_OK", 8),
                new Event("B", 1 * MS, "WRITE_OK", 8), new Event("B", 2000 * MS, "INVALID", 8),
                new Event("B", 6000 * MS, "LOST_SIGNAL", 8), new Event("A3", 6500 * MS, "ACQ_OK", 9),
                new Event("A3", 6700 * MS, "REL_OK", 9), new Event("B", 7000 * MS, "WRITE_OK", 8),
                new Event("B", 7001 * MS, "REL_OK", 8)));
        assertThat(ExploreChecker.staleWrites(told)).as("stale writes issued after their holder was told").isZero();
        List<Event> untold = ExploreChecker.invalidAsTold(List.of(new Event("B", 0, "ACQ_OK", 8),
                new Event("A3", 6500 * MS, "ACQ_OK", 9), new Event("B", 7000 * MS, "WRITE_OK", 8),
                new Event("B", 7100 * MS, "LOST_SIGNAL", 8), new Event("B", 7200 * MS, "REL_OK", 8)));
        assertThat(ExploreChecker.staleWrites(untold)).as("a stale write issued before its holder was told")
                .isEqualTo(1);
    }

    @Test
    void anInvalidLeaseAfterItsReleaseTellsNothing() {
        List<Event> events = ExploreChecker.invalidAsTold(List.of(new Event("A", 0, "ACQ_OK", 7),
                new Event("A", 1000 * MS, "REL_OK", 7), new Event("A", 1010 * MS, "INVALID", 7)));
        assertThat(events).extracting(Event::type).containsExactly("ACQ_OK", "REL_OK");
        assertThat(ChaosChecker.holds(events)).singleElement().matches(h -> !h.told());
    }

    @Test
    void aRunNameRoundTrips() {
        RunName name = RunName.parse("postgresql/lock/24/late-request");
        assertThat(name.store()).isEqualTo(ExploreStore.POSTGRESQL);
        assertThat(name.fault()).isEqualTo(Fault.LATE_REQUEST);
        assertThat(name).hasToString("postgresql/lock/24/late-request");
    }
}
