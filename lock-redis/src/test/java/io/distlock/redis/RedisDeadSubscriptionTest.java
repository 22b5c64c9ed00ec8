package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * A release subscription that died without closing (its peer frozen: the socket stays open, nothing arrives) has
 * no read timeout of its own. The store pings it, notices within a bound that the ping is not answered, lets its
 * waiters poll, and subscribes again; so a cross-process hand-off takes seconds, not the holder's whole TTL. The
 * waiting client reaches a test-owned server through a {@link FaultProxy} that freezes only the subscription's
 * connection; the holder is connected directly.
 */
class RedisDeadSubscriptionTest extends ServerBehindProxyTestBase {

    private static final LockOptions LEASE_30S = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(30));
    /** With timeout=1s: ping every 500 ms, lost after 1 s without answer, plus polling and a loaded machine. */
    private static final Duration HAND_OFF_BOUND = Duration.ofSeconds(10);

    @Test
    void aFrozenSubscriptionIsNoticedAndTheHandOffTakesSecondsNotTheHoldersTtl() throws Exception {
        try (LockStore holderStore = BackendStores.open(server.uri("timeout=1s"));
                LockStore waiterStore = BackendStores.open(viaProxy("timeout=1s"))) {
            RedisBackend waiterBackend = RedisProbe.backendOf(waiterStore);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(waiterBackend::isSubscribed);
            assertThat(proxy.freezeSubscriptions()).as("frozen subscription connections").isEqualTo(1);

            Lease held = holderStore.lock("handoff", LEASE_30S).tryAcquire().orElseThrow();
            CompletableFuture<Optional<Lease>> waiter = CompletableFuture.supplyAsync(() -> {
                try {
                    return waiterStore.lock("handoff", LEASE_30S).tryAcquire(Duration.ofSeconds(20));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> waiterBackend.signals().hasWaiters("handoff"));
            long releasedAt = System.nanoTime();
            held.release(); // its message goes to the frozen connection and is never delivered

            Optional<Lease> next = waiter.get(30, TimeUnit.SECONDS);
            Duration handOff = Duration.ofNanos(System.nanoTime() - releasedAt);
            assertThat(next).as("the waiter got the lock (holder's TTL was 30 s, the waiter waited up to 20 s)")
                    .isPresent();
            assertThat(handOff).as("release to hand-off").isLessThan(HAND_OFF_BOUND);
            Awaitility.await("subscribed again").atMost(Duration.ofSeconds(10)).until(waiterBackend::isSubscribed);
            next.get().release();
        }
    }
}
