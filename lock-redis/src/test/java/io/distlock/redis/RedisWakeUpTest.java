package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Waiters wake on the release message, not by polling: while the holder keeps a 30 s lease, a waiter sends almost
 * no attempts, yet gets the lock within seconds of the release. A release that publishes nothing (the key deleted
 * behind the store's back) costs the waiter at most the holder's TTL, never a hang.
 */
class RedisWakeUpTest {

    @RegisterExtension
    static final OwnRedisServer server = new OwnRedisServer();

    @Test
    void waiterWakesOnReleaseMessageAndDoesNotPoll() throws Exception {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore holderStore = BackendStores.open(server.uri("timeout=2s"));
                LockStore waiterStore = BackendStores.open(server.uri("timeout=2s"))) {
            RedisBackend waiterBackend = RedisProbe.backendOf(waiterStore);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(waiterBackend::isSubscribed);
            LockOptions lease30s = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(30));
            Lease held = holderStore.lock("wake", lease30s).tryAcquire().orElseThrow();

            long scriptsBefore = probe.calls("evalsha");
            CompletableFuture<Lease> waiter = CompletableFuture.supplyAsync(() -> {
                try {
                    return waiterStore.lock("wake", lease30s).acquire();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> waiterBackend.signals().hasWaiters("wake"));
            // two seconds of waiting: a poller (2..250 ms backoff) would send a dozen attempts or more
            Awaitility.await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10))
                    .until(() -> !waiter.isDone());
            long attemptsWhileWaiting = probe.calls("evalsha") - scriptsBefore;
            assertThat(attemptsWhileWaiting).as("acquire attempts during 2 s of waiting").isLessThanOrEqualTo(3);

            long releasedAt = System.nanoTime();
            held.release();
            Lease next = waiter.get(10, TimeUnit.SECONDS);
            long wokeAfterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - releasedAt);
            assertThat(wokeAfterMs).as("ms from release to the waiter's grant, holder TTL was 30 s")
                    .isLessThan(10_000);
            assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
            next.release();
        }
    }

    @Test
    void releaseWithoutMessageCostsAtMostTheHoldersTtl() throws Exception {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore holderStore = BackendStores.open(server.uri("timeout=2s"));
                LockStore waiterStore = BackendStores.open(server.uri("timeout=2s"))) {
            LockOptions lease2s = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(2)).withAutoRenew(false);
            Lease held = holderStore.lock("silent", lease2s).tryAcquire().orElseThrow();
            long start = System.nanoTime();
            // nobody publishes: the waiter must still get it once the TTL it was told has passed
            probe.raw().del("distlock:{silent}");
            Lease next = waiterStore.lock("silent", lease2s).tryAcquire(Duration.ofSeconds(2 + 3)).orElseThrow();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
            assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
            next.release();
        }
    }
}
