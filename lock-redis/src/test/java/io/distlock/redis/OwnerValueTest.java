package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The value an acquire encodes directly is the UTF-8 of the value string, whatever the thread is called. */
class OwnerValueTest {

    @Test
    void theEncodedValueIsTheValueStringInUtf8() {
        for (String threadName : List.of("main", "worker-7", "zürich-✓ thread", "")) {
            Thread holder = new Thread(() -> { }, threadName);
            for (String token : List.of("00ff1a2b3c4d5e6f708192a31", "tök")) {
                byte[] encoded = OwnerValue.encoded(token, holder).getRaw();
                assertThat(new String(encoded, StandardCharsets.UTF_8))
                        .as("thread '%s', token '%s'", threadName, token)
                        .isEqualTo(OwnerValue.of(token, holder));
            }
        }
    }

    @Test
    void aHandleShowsAndEqualsItsValueAndShowsNoToken() {
        String value = OwnerValue.of("abc", Thread.currentThread());
        SentBytes held = OwnerValue.encoded("abc", Thread.currentThread());
        assertThat(held.text()).isEqualTo(value);
        assertThat(held.getRaw()).isEqualTo(value.getBytes(StandardCharsets.UTF_8));
        assertThat(OwnerValue.of(new io.distlock.spi.Grant("n", "abc", 1, held))).isEqualTo(value);
        assertThat(OwnerValue.of(new io.distlock.spi.Grant("n", "abc", 1, value))).as("a Redlock grant's")
                .isEqualTo(value);
        assertThat(held).isEqualTo(new SentBytes(value.getBytes(StandardCharsets.UTF_8)))
                .hasSameHashCodeAs(new SentBytes(value.getBytes(StandardCharsets.UTF_8)));
        assertThat(held.toString()).doesNotContain("abc");
    }
}
