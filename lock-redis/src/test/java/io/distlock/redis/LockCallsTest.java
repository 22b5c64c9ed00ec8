package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The encoded calls name the same keys, channel and arguments as the string calls. */
class LockCallsTest {

    private final RedisKeys keys = new RedisKeys("p:");
    private final LockCalls calls = new LockCalls(keys, false, Duration.ofSeconds(60), Duration.ofSeconds(1));
    private final LockCalls guarded = new LockCalls(keys, true, Duration.ofSeconds(60), null);

    @Test
    void encodedKeysAreTheKeysOfRedisKeys() {
        for (String name : List.of("orders:42", "", "a}b", "{x}", "zürich-✓", "with space")) {
            LockCalls.EncodedName encoded = calls.encode(name);
            assertThat(text(encoded.lock())).isEqualTo(keys.lock(name));
            assertThat(text(encoded.fence())).isEqualTo(keys.fence(name));
            assertThat(text(encoded.waiting())).isEqualTo(keys.waiting(name));
            assertThat(text(encoded.channel())).isEqualTo(keys.channel(name));
            assertThat(text(encoded.encodedName())).isEqualTo(name);
        }
    }

    @Test
    void encodedAcquireAndReleaseCarryTheStringCallsKeysAndArguments() {
        for (LockCalls c : List.of(calls, guarded)) {
            LockCalls.Call acquire = c.acquire("n", "v|me", Duration.ofMillis(1500));
            LockCalls.BinaryCall encodedAcquire = c.acquire(c.encode("n"), bytes("v|me"), Duration.ofMillis(1500));
            assertThat(texts(encodedAcquire.keys())).isEqualTo(acquire.keys());
            assertThat(texts(encodedAcquire.args())).isEqualTo(acquire.args());

            LockCalls.Call release = c.release("n", "v|me");
            LockCalls.BinaryCall encodedRelease = c.release(c.encode("n"), bytes("v|me"));
            assertThat(texts(encodedRelease.keys())).isEqualTo(release.keys());
            assertThat(texts(encodedRelease.args())).isEqualTo(release.args());
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    private static List<String> texts(List<byte[]> list) {
        return list.stream().map(LockCallsTest::text).toList();
    }
}
