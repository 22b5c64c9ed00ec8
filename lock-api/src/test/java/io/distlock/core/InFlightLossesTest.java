package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Losses reported while acquisitions are in flight reach the acquisition of their grant, and are then forgotten. */
class InFlightLossesTest {

    private final InFlightLosses losses = new InFlightLosses();

    @Test
    void aLossReportedInFlightIsHandedToItsAcquisitionOnce() {
        losses.begin("a");
        losses.record("a", "token-1", "session expired");
        assertThat(losses.kept()).isEqualTo(1);
        assertThat(losses.end("a", "token-1")).isEqualTo("session expired");
        assertThat(losses.kept()).isZero();
    }

    @Test
    void aLossOfANameWithNothingInFlightIsNotKept() {
        losses.record("a", "token-1", "late");
        losses.begin("a");
        assertThat(losses.end("a", "token-1")).as("reported before this acquisition began").isNull();
        losses.record("a", "token-1", "after the end");
        assertThat(losses.kept()).isZero();
    }

    @Test
    void eachOfSeveralAcquisitionsOfOneNameGetsOnlyTheLossOfItsOwnGrant() {
        losses.begin("p");
        losses.begin("p");
        losses.begin("p");
        losses.record("p", "token-2", "deleted");
        assertThat(losses.end("p", "token-1")).isNull();
        assertThat(losses.end("p", null)).as("an acquisition that got no grant").isNull();
        assertThat(losses.kept()).isEqualTo(1);
        assertThat(losses.end("p", "token-2")).isEqualTo("deleted");
        assertThat(losses.kept()).isZero();
        losses.record("p", "token-2", "after every acquisition ended");
        assertThat(losses.kept()).isZero();
    }

    @Test
    void endingAnAcquisitionThatNeverBeganIsAnError() {
        assertThatThrownBy(() -> losses.end("never", null)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'never'");
    }
}
