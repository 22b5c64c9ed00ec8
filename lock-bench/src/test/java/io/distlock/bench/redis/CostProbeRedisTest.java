package io.distlock.bench.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.bench.BenchConfig;
import io.distlock.bench.core.RoundTripProxy;
import io.distlock.bench.core.WireProtocol;
import io.distlock.bench.result.OpCost;
import io.distlock.bench.scenario.CostProbe;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Against the shared Redis, a sanity check of the counting instrument (not a benchmark): the raw limit's pair is
 * exactly two commands in two round trips through the counting proxy, with bytes each way, client CPU and
 * allocation measured, and names used once leave nothing the raw limit did not write.
 */
class CostProbeRedisTest {

    @Test
    void rawPairCountsTwoRoundTripsAndTwoCommands() throws Exception {
        RedisBench redis = new RedisBench(BenchConfig.DEFAULT_SERVERS.get("redis"), "redis://{host}:{port}");
        try (RoundTripProxy proxy = new RoundTripProxy(redis.server(), Duration.ZERO, WireProtocol.REDIS);
             RawRedisContender raw = new RawRedisContender(proxy.address())) {
            CostProbe probe = new CostProbe(redis, proxy);
            String prefix = "bench-test:" + UUID.randomUUID() + ":";
            probe.measure(raw, CostProbe.PAIR, prefix, Duration.ofMillis(100), Duration.ZERO); // loads the script

            OpCost cost = probe.measure(raw, CostProbe.PAIR, prefix, Duration.ofMillis(300), Duration.ZERO);

            assertThat(cost.operations()).isPositive();
            assertThat(cost.roundTrips()).as("SET NX PX, then EVALSHA").isEqualTo(2.0);
            assertThat(cost.requests()).as("commands the server executed").isEqualTo(2.0);
            assertThat(cost.pushes()).isZero();
            assertThat(cost.bytesUp()).isPositive();
            assertThat(cost.bytesDown()).isPositive();
            assertThat(cost.clientCpuMicros()).isPositive();
            assertThat(cost.clientBytes()).isPositive();
            assertThat(redis.leftover(prefix).getAsLong()).as("the raw limit deletes its key on release").isZero();
        }
    }
}
