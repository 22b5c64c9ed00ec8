package io.distlock.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A holder whose lease has (nearly) no end, as an operator's far-off expiry makes it: the waiter backs off as usual
 * instead of turning the holder's TTL plus the 1 ms margin into a negative delay and attempting in a loop (before,
 * 2.4 million attempts in 300 ms).
 */
class PollingLockBackendTest {

    @Test
    void aHolderTtlNearLongMaxDoesNotTurnTheWaitIntoABusyLoop() throws InterruptedException {
        HeldForever backend = new HeldForever();
        long waitNanos = TimeUnit.MILLISECONDS.toNanos(300);
        long start = System.nanoTime();
        Grant grant = backend.acquire("held", Duration.ofSeconds(10), Wait.upTo(waitNanos));
        assertThat(grant).isNull();
        assertThat(System.nanoTime() - start).as("the wait ran its full time").isGreaterThanOrEqualTo(waitNanos);
        // the default backoff (2 ms doubling to 250 ms, each step jittered down to half) allows about 10 in 300 ms
        assertThat(backend.attempts.get()).as("attempts in a 300 ms wait on a holder that never expires")
                .isLessThanOrEqualTo(12);
    }

    @Test
    void theDelayUntilTheHolderExpiresSaturatesInsteadOfOverflowing() {
        assertThat(PollingLockBackend.untilHolderExpiry(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
        assertThat(PollingLockBackend.untilHolderExpiry(Long.MAX_VALUE - 1)).isEqualTo(Long.MAX_VALUE);
        assertThat(PollingLockBackend.untilHolderExpiry(0)).isEqualTo(TimeUnit.MILLISECONDS.toNanos(1));
        assertThat(new HeldForever().pollDelayNanos(3, Long.MAX_VALUE)).as("the default backoff").isPositive();
    }

    /** A store whose every attempt finds the lock held for {@link Long#MAX_VALUE} nanoseconds more. */
    private static final class HeldForever extends PollingLockBackend {

        final AtomicInteger attempts = new AtomicInteger();

        @Override
        protected Attempt attempt(String name, Duration leaseTime) {
            attempts.incrementAndGet();
            return Attempt.held(Long.MAX_VALUE);
        }

        @Override
        public Terms terms() {
            return Terms.timed(255);
        }

        @Override
        public boolean release(Grant grant) {
            return false;
        }

        @Override
        public Set<Grant> renew(List<Renewal> renewals) {
            return Set.of();
        }

        @Override
        public void close() {
        }
    }
}
