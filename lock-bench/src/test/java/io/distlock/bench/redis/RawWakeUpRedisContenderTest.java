package io.distlock.bench.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.bench.BenchConfig;
import io.distlock.bench.core.Sample;
import io.distlock.bench.scenario.Handoff;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Against the shared Redis: the wake-up floor hands a lock over between two clients on release messages alone.
 * Its safety-net retry is set longer than the hand-off scenario's own timeout, so a wake-up that did not come
 * fails the run instead of being covered by a retry.
 */
class RawWakeUpRedisContenderTest {

    @Test
    void waitersAreWokenByTheReleaseMessage() throws Exception {
        try (RawWakeUpRedisContender floor = new RawWakeUpRedisContender(BenchConfig.DEFAULT_SERVERS.get("redis"),
                Duration.ofMinutes(10))) {
            Sample sample = new Handoff(Duration.ofMillis(5)).run(floor,
                    "bench-test:" + UUID.randomUUID() + ":", Duration.ofMillis(300));

            assertThat(sample.operations()).as("hand-offs in 300 ms").isPositive();
        }
    }
}
