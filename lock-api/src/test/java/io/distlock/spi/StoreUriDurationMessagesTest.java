package io.distlock.spi;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A wrong duration is told what is wrong with it: negative, or not the number of milliseconds its name asks for. */
class StoreUriDurationMessagesTest {

    private static final Duration MIN = Duration.ofMillis(1);
    private static final Duration MAX = Duration.ofHours(1);

    @Test
    void aNegativeDurationIsCalledNegative() {
        assertThatThrownBy(() -> StoreUri.parseDuration("-5s")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'-5s' must not be negative");
        StoreUri uri = StoreUri.parse("redis://h:6379?timeout=-2s");
        assertThatThrownBy(() -> uri.durationOption("timeout", MIN, MIN, MAX))
                .hasMessageContaining("timeout='-2s', which must not be negative");
    }

    @Test
    void anOptionNamedMillisAsksForMilliseconds() {
        StoreUri uri = StoreUri.parse("jdbc:h2:mem:x?distlock.connectTimeoutMillis=soon");
        assertThatThrownBy(() -> uri.durationOption("distlock.connectTimeoutMillis", MIN, MIN, MAX))
                .hasMessageContaining("distlock.connectTimeoutMillis='soon', which is not a number of milliseconds;"
                        + " write for example 500")
                .hasMessageNotContaining("500ms");
    }
}
