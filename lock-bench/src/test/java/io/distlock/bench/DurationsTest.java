package io.distlock.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Command-line durations: the short forms people type, ISO-8601, and a clear error otherwise. */
class DurationsTest {

    @Test
    void parsesShortFormsAndIso() {
        assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse("5s")).isEqualTo(Duration.ofSeconds(5));
        assertThat(Durations.parse("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(Durations.parse("PT3S")).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void rejectsGarbageNamingIt() {
        assertThatThrownBy(() -> Durations.parse("fast"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'fast' is not a duration");
    }
}
