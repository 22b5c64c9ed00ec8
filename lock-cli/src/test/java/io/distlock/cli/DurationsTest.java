package io.distlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Durations as shown in tables. */
class DurationsTest {

    @Test
    void showsShortAndLongDurationsReadably() {
        assertThat(Durations.show(Duration.ofMillis(420))).isEqualTo("0.42 s");
        assertThat(Durations.show(Duration.ofMillis(12_345))).isEqualTo("12.3 s");
        assertThat(Durations.show(Duration.ofSeconds(125))).isEqualTo("2 min 5 s");
        assertThat(Durations.show(null)).isEmpty();
    }
}
