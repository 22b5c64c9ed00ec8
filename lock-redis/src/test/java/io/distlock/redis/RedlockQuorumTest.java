package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.spi.LeaseClock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Redlock's arithmetic with made-up elapsed times: majority and validity. */
class RedlockQuorumTest {

    private static long ms(long millis) {
        return TimeUnit.MILLISECONDS.toNanos(millis);
    }

    @Test
    void majorityIsMoreThanHalf() {
        assertThat(new RedlockQuorum(3).quorum()).isEqualTo(2);
        assertThat(new RedlockQuorum(4).quorum()).isEqualTo(3);
        assertThat(new RedlockQuorum(5).quorum()).isEqualTo(3);
        assertThat(new RedlockQuorum(5).reachable(2)).isTrue();
        assertThat(new RedlockQuorum(5).reachable(3)).isFalse();
        assertThatThrownBy(() -> new RedlockQuorum(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void validityIsLeaseMinusElapsedMinusDrift() {
        Duration lease = Duration.ofSeconds(10);
        // drift = 1% of 10 s + 2 ms = 102 ms
        assertThat(LeaseClock.driftNanos(lease)).isEqualTo(ms(102));
        assertThat(RedlockQuorum.validityNanos(lease, ms(50))).isEqualTo(ms(10_000 - 50 - 102));
        assertThat(RedlockQuorum.validityNanos(lease, ms(9_898))).isZero();
    }

    @Test
    void wonNeedsMajorityAndTimeLeft() {
        RedlockQuorum five = new RedlockQuorum(5);
        Duration lease = Duration.ofSeconds(10);
        assertThat(five.won(3, lease, ms(10))).isTrue();
        assertThat(five.won(2, lease, ms(10))).as("no majority").isFalse();
        assertThat(five.won(5, lease, ms(9_898))).as("validity exactly zero").isFalse();
        assertThat(five.won(5, lease, ms(9_897))).as("1 ms of validity left").isTrue();
        assertThat(five.won(5, Duration.ofMillis(2), 0)).as("a 2 ms lease is all drift").isFalse();
    }
}
