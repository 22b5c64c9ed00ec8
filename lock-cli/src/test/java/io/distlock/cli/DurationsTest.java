package io.distlock.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Durations as written on command lines and in store URIs, and as shown in tables. */
class DurationsTest {

    @Test
    void parsesUnitsIsoAndBareMilliseconds() {
        assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse("3s")).isEqualTo(Duration.ofSeconds(3));
        assertThat(Durations.parse("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(Durations.parse("1h")).isEqualTo(Duration.ofHours(1));
        assertThat(Durations.parse("PT4S")).isEqualTo(Duration.ofSeconds(4));
        assertThat(Durations.parse("pt4s")).isEqualTo(Duration.ofSeconds(4));
        assertThat(Durations.parse("3000")).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void rejectsTextNamingIt() {
        assertThatThrownBy(() -> Durations.parse("three seconds")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'three seconds' is not a duration");
    }

    @Test
    void showsShortAndLongDurationsReadably() {
        assertThat(Durations.show(Duration.ofMillis(420))).isEqualTo("0.42 s");
        assertThat(Durations.show(Duration.ofMillis(12_345))).isEqualTo("12.3 s");
        assertThat(Durations.show(Duration.ofSeconds(125))).isEqualTo("2 min 5 s");
        assertThat(Durations.show(null)).isEmpty();
    }
}
