package io.distlock.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A ticket taken after an attempt sees the signals sent since the mark taken before it, and only those. */
class ReleaseSignalsTest {

    private final ReleaseSignals signals = new ReleaseSignals();

    @Test
    void aSignalBetweenTheMarkAndTheTicketIsNotSleptThrough() throws InterruptedException {
        long mark = signals.mark("n");
        signals.signal("n"); // a release between the attempt and the ticket
        try (ReleaseSignals.Ticket ticket = signals.ticketSince("n", mark)) {
            assertThat(ticket.await(TimeUnit.MINUTES.toNanos(1))).as("woken by the earlier signal").isTrue();
            assertThat(ticket.await(0)).as("that signal counts once").isFalse();
        }
        assertThat(signals.hasWaiters("n")).isFalse();
    }

    @Test
    void withoutASignalSinceTheMarkTheTicketWaits() throws InterruptedException {
        signals.signal("n"); // before the mark: the attempt saw that release
        long mark = signals.mark("n");
        try (ReleaseSignals.Ticket ticket = signals.ticketSince("n", mark)) {
            assertThat(ticket.await(0)).isFalse();
            signals.signal("n");
            assertThat(ticket.await(TimeUnit.MINUTES.toNanos(1))).as("woken by a later signal").isTrue();
        }
    }

    @Test
    void signalAllCountsForEveryMark() throws InterruptedException {
        long mark = signals.mark("any");
        signals.signalAll();
        try (ReleaseSignals.Ticket ticket = signals.ticketSince("any", mark)) {
            assertThat(ticket.await(TimeUnit.MINUTES.toNanos(1))).isTrue();
        }
    }
}
