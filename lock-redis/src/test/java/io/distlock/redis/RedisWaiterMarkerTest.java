package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A release publishes only when a refused attempt left the waiting marker: a lock nobody waits for is released
 * without a message, and a waiter in another client is still woken by the release, whether its attempt ran just
 * before the release or just after it.
 */
class RedisWaiterMarkerTest {

    private static final LockOptions LEASE_30S = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(30));

    @RegisterExtension
    static final OwnRedisServer server = new OwnRedisServer();

    @Test
    void aLockNobodyWaitsForIsReleasedWithoutAMessage() {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = LockStore.open(server.uri("timeout=2s"))) {
            long before = probe.calls("publish");
            for (int i = 0; i < 20; i++) {
                store.lock("quiet", LEASE_30S).tryAcquire().orElseThrow().release();
            }
            assertThat(probe.calls("publish") - before).as("PUBLISH calls for 20 releases nobody waited for")
                    .isZero();
        }
    }

    @Test
    void aRefusedAttemptMakesTheNextReleasePublishOnce() {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore holderStore = LockStore.open(server.uri("timeout=2s"));
                LockStore otherStore = LockStore.open(server.uri("timeout=2s"))) {
            Lease held = holderStore.lock("marked", LEASE_30S).tryAcquire().orElseThrow();
            assertThat(otherStore.lock("marked", LEASE_30S).tryAcquire()).isEmpty();

            long holderTtl = probe.raw().pttl("distlock:{marked}");
            long markerTtl = probe.raw().pttl("distlock:waiting:{marked}");
            assertThat(markerTtl).as("waiting marker's TTL (ms) vs the holder's %d ms", holderTtl)
                    .isGreaterThan(holderTtl);

            long before = probe.calls("publish");
            held.release();
            assertThat(probe.calls("publish") - before).as("PUBLISH calls of the release after a refusal").isEqualTo(1);
            assertThat(probe.raw().exists("distlock:waiting:{marked}")).as("marker after the release").isFalse();

            otherStore.lock("marked", LEASE_30S).tryAcquire().orElseThrow().release();
            assertThat(probe.calls("publish") - before).as("PUBLISH calls after a second release nobody waited for")
                    .isEqualTo(1);
        }
    }

    /**
     * Two clients take turns on a lock with a 30 s lease. In odd rounds the holder releases as soon as the other
     * client's thread has started (its attempt usually runs after the release, and then finds the lock free); in even
     * rounds once that client has registered as a waiter (its attempt runs just before the release, or the release
     * lands while the attempt is on its way). A waiter that slept through a release without hearing of it would sleep
     * until its 20 s wait ran out (the lease has 30 s), far past the 5 s allowed from release to grant.
     */
    @Test
    void everyHandOffBetweenClientsIsWokenByTheRelease() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (LockStore first = LockStore.open(server.uri("timeout=2s"));
                LockStore second = LockStore.open(server.uri("timeout=2s"))) {
            LockStore[] stores = {first, second};
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> RedisProbe.backendOf(first).isSubscribed()
                    && RedisProbe.backendOf(second).isSubscribed());
            Lease held = first.lock("turns", LEASE_30S).acquire();
            long lastFence = held.fencingToken();
            for (int round = 1; round <= 60; round++) {
                LockStore waiter = stores[round % 2];
                RedisBackend waiterBackend = RedisProbe.backendOf(waiter);
                CountDownLatch started = new CountDownLatch(1);
                Future<Lease> next = pool.submit(() -> {
                    started.countDown();
                    return waiter.lock("turns", LEASE_30S).tryAcquire(Duration.ofSeconds(20))
                            .orElseThrow(() -> new AssertionError("no hand-off within 20 s"));
                });
                assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
                if (round % 2 == 0) {
                    Awaitility.await().pollInterval(Duration.ofMillis(1)).atMost(Duration.ofSeconds(10))
                            .until(() -> waiterBackend.signals().hasWaiters("turns"));
                }
                long releasedAt = System.nanoTime();
                held.release();
                held = next.get(30, TimeUnit.SECONDS);
                assertThat(Duration.ofNanos(System.nanoTime() - releasedAt)).as("release to grant in round %d", round)
                        .isLessThan(Duration.ofSeconds(5));
                assertThat(held.fencingToken()).isGreaterThan(lastFence);
                lastFence = held.fencingToken();
            }
            held.release();
        } finally {
            pool.shutdownNow();
        }
    }
}
