package io.distlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** LockOptions: defaults, copies and validation. */
class LockOptionsTest {

    @Test
    void defaultsAreThirtySecondsWithAutoRenew() {
        assertThat(LockOptions.defaults().leaseTime()).isEqualTo(Duration.ofSeconds(30));
        assertThat(LockOptions.defaults().autoRenew()).isTrue();
    }

    @Test
    void withMethodsReturnCopies() {
        LockOptions base = LockOptions.defaults();
        LockOptions changed = base.withLeaseTime(Duration.ofSeconds(5)).withAutoRenew(false);
        assertThat(base.leaseTime()).isEqualTo(Duration.ofSeconds(30));
        assertThat(changed.leaseTime()).isEqualTo(Duration.ofSeconds(5));
        assertThat(changed.autoRenew()).isFalse();
        assertThat(changed).isEqualTo(LockOptions.defaults().withAutoRenew(false).withLeaseTime(Duration.ofSeconds(5)))
                .hasSameHashCodeAs(LockOptions.defaults().withAutoRenew(false).withLeaseTime(Duration.ofSeconds(5)));
        assertThat(changed.toString()).contains("PT5S", "autoRenew=false");
    }

    @Test
    void leaseTimeMustBePositiveAndAtLeastAMillisecond() {
        assertThatThrownBy(() -> LockOptions.defaults().withLeaseTime(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("leaseTime");
        assertThatThrownBy(() -> LockOptions.defaults().withLeaseTime(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("leaseTime must be positive");
        assertThatThrownBy(() -> LockOptions.defaults().withLeaseTime(Duration.ofMillis(-5)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LockOptions.defaults().withLeaseTime(Duration.ofNanos(10)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 ms");
    }
}
