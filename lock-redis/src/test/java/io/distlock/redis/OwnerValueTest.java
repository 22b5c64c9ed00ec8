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
                byte[] encoded = OwnerValue.encoded(token, holder);
                assertThat(new String(encoded, StandardCharsets.UTF_8))
                        .as("thread '%s', token '%s'", threadName, token)
                        .isEqualTo(OwnerValue.of(token, holder));
            }
        }
    }

    @Test
    void aHandleAcquiredEncodedShowsAndEqualsItsValue() {
        LockCalls.EncodedName keys = new LockCalls(new RedisKeys("p:"), false, java.time.Duration.ofSeconds(60), null)
                .encode("n");
        String value = OwnerValue.of("abc", Thread.currentThread());
        HeldLock encoded = HeldLock.encoded(OwnerValue.encoded("abc", Thread.currentThread()), keys);
        HeldLock fromString = new HeldLock(value, keys);
        assertThat(encoded.value()).isEqualTo(value);
        assertThat(HeldLock.valueOf(encoded)).isEqualTo(value);
        assertThat(encoded).isEqualTo(fromString).hasSameHashCodeAs(fromString);
        assertThat(encoded.toString()).doesNotContain("abc");
    }
}
