package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code releaseAfter(minHeld)} on a store with {@code restartGuard=true}, whose leases may not outlast
 * {@code maxLeaseTime}, for a {@code minHeld} longer than that: the store refuses the expiry, so the lock is freed at
 * once and the caller is told, never left in the store with no lease in any client (held until its expiry, unrenewed,
 * with nobody able to release it).
 */
class RedisReleaseAfterBoundTest {

    @RegisterExtension
    static final OwnRedisServer server = new OwnRedisServer();

    @Test
    void aReleaseAfterPastMaxLeaseTimeLeavesNoOrphanedLock() throws InterruptedException {
        String uri = server.uri("timeout=1s&restartGuard=true&maxLeaseTime=2s");
        LockOptions lease = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(2));
        try (LockStore store = LockStore.open(uri); LockStore other = LockStore.open(uri)) {
            Lease held = store.lock("after-bound", lease).tryAcquire(Duration.ofSeconds(10)).orElseThrow();
            Throwable refused = catchThrowable(() -> held.releaseAfter(Duration.ofSeconds(30)));
            assertThat(other.lock("after-bound", lease).tryAcquire()).as("the name after releaseAfter failed with %s",
                    refused).isPresent().get().satisfies(Lease::release);
            assertThat(held.isValid()).as("the lease after the refusal").isFalse();
            assertThat(refused).as("releaseAfter(30 s) past maxLeaseTime").isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("releaseAfter(PT30S)").hasMessageContaining("released now")
                    .hasMessageContaining("maxLeaseTime");
        }
    }
}
