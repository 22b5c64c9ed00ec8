package io.distlock.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The three kinds of wait an acquire hands a backend, and how each answers for the time left. */
class WaitTest {

    @Test
    void noneIsASingleAttemptWithNoTimeLeft() {
        Wait none = Wait.none();
        assertThat(none.isNone()).isTrue();
        assertThat(none.expired()).isTrue();
        assertThat(none.remainingNanos()).isZero();
        assertThat(none.cap(1_000)).isZero();
        assertThat(Wait.upTo(0)).isSameAs(none);
        assertThat(Wait.upTo(-5)).isSameAs(none);
        assertThatThrownBy(none::deadlineNanos).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aDurationTooLongForNanosecondsWaitsSeventyThreeYearsWithoutOverflow() {
        assertThat(Wait.upTo(Duration.ZERO)).isSameAs(Wait.none());
        for (Duration tooLong : new Duration[] {Duration.ofSeconds(Long.MAX_VALUE), Duration.ofDays(200 * 365)}) {
            Wait wait = Wait.upTo(tooLong);
            assertThat(wait.isBounded()).isTrue();
            assertThat(wait.expired()).as("a wait of %s, just made", tooLong).isFalse();
            assertThat(wait.remainingNanos()).isPositive().isLessThanOrEqualTo(Long.MAX_VALUE / 4);
        }
        assertThat(Wait.upTo(Duration.ofMillis(500)).remainingNanos()).isBetween(1L, 500_000_000L);
    }

    @Test
    void foreverNeverExpiresAndCapsNothing() {
        Wait forever = Wait.forever();
        assertThat(forever.isForever()).isTrue();
        assertThat(forever.expired()).isFalse();
        assertThat(forever.cap(1_000)).isEqualTo(1_000);
        assertThat(forever.now()).isSameAs(forever);
    }

    @Test
    void aBoundedWaitCountsDownToItsDeadlineAndThenIsASingleAttempt() {
        Wait bounded = Wait.upTo(TimeUnit.HOURS.toNanos(1));
        assertThat(bounded.isBounded()).isTrue();
        assertThat(bounded.expired()).isFalse();
        assertThat(bounded.remainingNanos()).isPositive().isLessThanOrEqualTo(TimeUnit.HOURS.toNanos(1));
        assertThat(bounded.cap(1_000)).isEqualTo(1_000);
        assertThat(bounded.now()).isSameAs(bounded);

        Wait passed = Wait.upTo(TimeUnit.MILLISECONDS.toNanos(50));
        assertThat(passed.isBounded()).isTrue();
        while (!passed.expired()) {
            Thread.onSpinWait();
        }
        assertThat(passed.remainingNanos()).isZero();
        assertThat(passed.cap(1_000)).isZero();
        assertThat(passed.now().isNone()).isTrue();
        assertThat(Wait.until(System.nanoTime() - 1).isNone()).isTrue();
    }
}
