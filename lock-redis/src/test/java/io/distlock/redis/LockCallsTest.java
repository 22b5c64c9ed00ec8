package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.args.Rawable;

/** The encoded calls name the same keys, channel and arguments as the string calls. */
class LockCallsTest {

    private final RedisKeys keys = new RedisKeys("p:");
    private final LockCalls calls = new LockCalls(keys, false, Duration.ofSeconds(60), Duration.ofSeconds(1));
    private final LockCalls guarded = new LockCalls(keys, true, Duration.ofSeconds(60), null);

    @Test
    void encodedCallsCarryTheStringCallsKeysAndArgumentsForEveryName() {
        for (String name : List.of("orders:42", "", "a}b", "{x}", "zürich-✓", "with space")) {
            for (LockCalls c : List.of(calls, guarded)) {
                LockCalls.Call acquire = c.acquire(name, "v|me", Duration.ofMillis(1500));
                CommandArguments encodedAcquire = c.acquire(name, SentBytes.of("v|me"), Duration.ofMillis(1500));
                assertThat(text(encodedAcquire.get(1))).isEqualTo(RedisScripts.ACQUIRE.sha());
                assertThat(keysOf(encodedAcquire)).isEqualTo(acquire.keys());
                assertThat(argsOf(encodedAcquire)).isEqualTo(acquire.args());
                assertThat(encodedAcquire.getKeys()).hasSize(acquire.keys().size()); // routed by every key

                LockCalls.Call release = c.release(name, "v|me");
                CommandArguments encodedRelease = c.release(name, SentBytes.of("v|me"));
                assertThat(text(encodedRelease.get(1))).isEqualTo(RedisScripts.RELEASE.sha());
                assertThat(keysOf(encodedRelease)).isEqualTo(release.keys());
                assertThat(argsOf(encodedRelease)).isEqualTo(release.args());
            }
            assertThat(keysOf(calls.handOver(name, SentBytes.of("v|a"), SentBytes.of("v|b"), Duration.ofMillis(1500))))
                    .containsExactly(keys.lock(name), keys.fence(name), keys.waiting(name));
        }
    }

    @Test
    void anotherLeaseTimeIsEncodedAfresh() {
        assertThat(argsOf(calls.acquire("n", SentBytes.of("v"), Duration.ofMillis(1500))).get(1)).isEqualTo("1500");
        assertThat(argsOf(calls.acquire("n", SentBytes.of("v"), Duration.ofSeconds(7))).get(1)).isEqualTo("7000");
        assertThat(argsOf(calls.acquire("n", SentBytes.of("v"), Duration.ofMillis(1500))).get(1)).isEqualTo("1500");
    }

    /** The KEYS of an EVALSHA call: after the command, the SHA and the key count. */
    private static List<String> keysOf(CommandArguments call) {
        int count = Integer.parseInt(text(call.get(2)));
        return texts(call, 3, 3 + count);
    }

    /** The ARGV of an EVALSHA call: after the keys. */
    private static List<String> argsOf(CommandArguments call) {
        int count = Integer.parseInt(text(call.get(2)));
        return texts(call, 3 + count, call.size());
    }

    private static List<String> texts(CommandArguments call, int from, int to) {
        List<String> texts = new ArrayList<>();
        for (int i = from; i < to; i++) {
            texts.add(text(call.get(i)));
        }
        return texts;
    }

    private static String text(Rawable r) {
        return text(r.getRaw());
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
