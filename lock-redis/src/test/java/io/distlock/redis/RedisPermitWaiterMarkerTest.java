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
 * Permits follow the locks' waiting-marker rule: a permit release publishes only when a refused waiting attempt left
 * the semaphore's waiting marker, so a semaphore nobody waits for is released without a message, and a waiter in
 * another client is still woken by the release, whether its attempt ran just before the release or just after it.
 */
class RedisPermitWaiterMarkerTest {

    private static final LockOptions LEASE_30S = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(30));

    @RegisterExtension
    static final OwnRedisServer server = new OwnRedisServer();

    private static RedisPermits keys() {
        return new RedisPermits(null, new RedisKeys("distlock:"), null, "test", null, false);
    }

    @Test
    void aSemaphoreNobodyWaitsForIsReleasedWithoutAMessage() throws InterruptedException {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = LockStore.open(server.uri("timeout=2s"))) {
            long before = probe.calls("publish");
            for (int i = 0; i < 20; i++) {
                Lease one = store.semaphore("quiet", 2, LEASE_30S).acquire();
                Lease two = store.semaphore("quiet", 2, LEASE_30S).tryAcquire().orElseThrow();
                one.release();
                two.release();
            }
            assertThat(probe.calls("publish") - before).as("PUBLISH calls for 40 permit releases nobody waited for")
                    .isZero();
        }
    }

    @Test
    void aRefusedWaitingAttemptMakesTheNextReleasePublishOnce() throws InterruptedException {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore holderStore = LockStore.open(server.uri("timeout=2s"));
                LockStore otherStore = LockStore.open(server.uri("timeout=2s"))) {
            Lease held = holderStore.semaphore("marked", 1, LEASE_30S).tryAcquire().orElseThrow();
            assertThat(otherStore.semaphore("marked", 1, LEASE_30S).tryAcquire(Duration.ofMillis(20))).isEmpty();

            long holderTtl = probe.raw().pttl(keys().holders("marked"));
            long markerTtl = probe.raw().pttl(keys().waiting("marked"));
            assertThat(markerTtl).as("waiting marker's TTL (ms) vs the holders' %d ms", holderTtl)
                    .isGreaterThan(holderTtl);

            long before = probe.calls("publish");
            held.release();
            assertThat(probe.calls("publish") - before).as("PUBLISH calls of the release after a refusal").isEqualTo(1);
            assertThat(probe.raw().exists(keys().waiting("marked"))).as("marker after the release").isFalse();

            otherStore.semaphore("marked", 1, LEASE_30S).tryAcquire().orElseThrow().release();
            assertThat(probe.calls("publish") - before).as("PUBLISH calls after a second release nobody waited for")
                    .isEqualTo(1);
        }
    }

    @Test
    void aRefusedSingleAttemptLeavesNoMarker() {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore holderStore = LockStore.open(server.uri("timeout=2s"));
                LockStore otherStore = LockStore.open(server.uri("timeout=2s"))) {
            Lease held = holderStore.semaphore("single", 1, LEASE_30S).tryAcquire().orElseThrow();
            assertThat(otherStore.semaphore("single", 1, LEASE_30S).tryAcquire()).isEmpty();
            assertThat(probe.raw().exists(keys().waiting("single"))).as("marker of an attempt that does not wait")
                    .isFalse();
            held.release();
        }
    }

    /**
     * Two clients take turns on a semaphore of one permit with a 30 s lease, as in {@link RedisWaiterMarkerTest}: in
     * odd rounds the holder releases as soon as the other client's thread has started, in even rounds once that
     * client's refused attempt has left the waiting marker. Each hand-off must come within 5 s of the release (the
     * waiter's own poll, backing off to 250 ms, bounds a release it did not hear of; the counts above show that the
     * message is sent).
     */
    @Test
    void everyHandOffBetweenClientsIsWokenByTheRelease() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore first = LockStore.open(server.uri("timeout=2s"));
                LockStore second = LockStore.open(server.uri("timeout=2s"))) {
            LockStore[] stores = {first, second};
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> RedisProbe.backendOf(first).isSubscribed()
                    && RedisProbe.backendOf(second).isSubscribed());
            Lease held = first.semaphore("turns", 1, LEASE_30S).acquire();
            long lastFence = held.fencingToken();
            for (int round = 1; round <= 40; round++) {
                LockStore waiter = stores[round % 2];
                CountDownLatch started = new CountDownLatch(1);
                Future<Lease> next = pool.submit(() -> {
                    started.countDown();
                    return waiter.semaphore("turns", 1, LEASE_30S).tryAcquire(Duration.ofSeconds(20))
                            .orElseThrow(() -> new AssertionError("no hand-off within 20 s"));
                });
                assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
                if (round % 2 == 0) {
                    Awaitility.await().pollInterval(Duration.ofMillis(1)).atMost(Duration.ofSeconds(10))
                            .until(() -> probe.raw().exists(keys().waiting("turns")));
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
