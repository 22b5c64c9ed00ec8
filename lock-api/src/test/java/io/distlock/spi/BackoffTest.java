package io.distlock.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The one back-off formula: the sequences the stores' retries and polls wait, and their bounds. */
class BackoffTest {

    @Test
    void doublesFromTheFirstDelayUpToTheCapWithoutOverflow() {
        long[] seen = new long[8];
        for (int failures = 0; failures < seen.length; failures++) {
            seen[failures] = Backoff.exponential(50, 1000, failures);
        }
        assertThat(seen).containsExactly(50, 100, 200, 400, 800, 1000, 1000, 1000);
        assertThat(Backoff.exponential(50, 1000, -3)).as("no failure yet").isEqualTo(50);
        assertThat(Backoff.exponential(1, Long.MAX_VALUE, 62)).isEqualTo(1L << 62);
        assertThat(Backoff.exponential(3, Long.MAX_VALUE, 62)).as("past the long range").isEqualTo(Long.MAX_VALUE);
        assertThat(Backoff.exponential(5, 9, 63)).isEqualTo(9);
        assertThat(Backoff.exponential(5, 9, Integer.MAX_VALUE)).isEqualTo(9);
        assertThat(Backoff.exponential(0, 9, 40)).isZero();
    }

    @Test
    void jitterStaysWithinItsBounds() {
        for (int i = 0; i < 1_000; i++) {
            assertThat(Backoff.jittered(1_000)).isBetween(500L, 1_000L);
            assertThat(Backoff.jitteredAbove(1_000)).isBetween(1_000L, 1_500L);
        }
        assertThat(Backoff.jittered(0)).isZero();
    }

    @Test
    void theDefaultPollGrowsFromTwoMillisecondsToAQuarterSecond() {
        long ms = TimeUnit.MILLISECONDS.toNanos(1);
        for (int i = 0; i < 200; i++) {
            assertThat(Backoff.pollNanos(0)).isBetween(ms, 2 * ms);
            assertThat(Backoff.pollNanos(3)).isBetween(8 * ms, 16 * ms);
            assertThat(Backoff.pollNanos(30)).isBetween(125 * ms, 250 * ms);
        }
    }

    @Test
    void aFailingRenewalRetriesFromFiftyMillisecondsWithinAThirdOfTheRenewalInterval() {
        Duration lease = Duration.ofSeconds(30); // renewed every 10 s: retries capped at 1 s
        long ms = TimeUnit.MILLISECONDS.toNanos(1);
        assertThat(LeaseClock.retryDelayNanos(lease, 0)).isEqualTo(50 * ms);
        assertThat(LeaseClock.retryDelayNanos(lease, 1)).isEqualTo(50 * ms);
        assertThat(LeaseClock.retryDelayNanos(lease, 2)).isEqualTo(100 * ms);
        assertThat(LeaseClock.retryDelayNanos(lease, 5)).isEqualTo(800 * ms);
        assertThat(LeaseClock.retryDelayNanos(lease, 6)).isEqualTo(1000 * ms);
        assertThat(LeaseClock.retryDelayNanos(Duration.ofMillis(900), 9)).as("a third of 300 ms").isEqualTo(100 * ms);
    }
}
