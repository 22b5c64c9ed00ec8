package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The waiting-marker rule, once for locks and for semaphore permits: a release publishes only when a refused attempt
 * left the waiting marker, so what nobody waits for is released without a message, and a waiter in another client is
 * still woken by the release, whether its attempt ran just before the release or just after it. A subclass says what
 * is taken (a lock, or a permit of a one-permit semaphore, each with a 30 s lease), which attempt leaves the marker,
 * and where the keys are; it registers a server of its own ({@link #server()}), since this module runs test classes
 * concurrently and the checks count the server's PUBLISH calls.
 */
abstract class WaiterMarkerTestBase {

    static final LockOptions LEASE_30S = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(30));

    /** The class's own server. */
    abstract OwnRedisServer server();

    /** One attempt on {@code name} through {@code store} that does not wait. */
    abstract Optional<Lease> attempt(LockStore store, String name);

    /** An attempt on {@code name} through {@code store} that waits up to {@code maxWait}. */
    abstract Optional<Lease> attempt(LockStore store, String name, Duration maxWait) throws InterruptedException;

    /** An attempt that, refused, leaves the waiting marker of {@code name}. */
    abstract Optional<Lease> markingAttempt(LockStore store, String name) throws InterruptedException;

    /** The key that holds {@code name}'s holder (or holders), whose TTL is the lease's. */
    abstract String holderKey(String name);

    /** The key of {@code name}'s waiting marker. */
    abstract String waitingKey(String name);

    /** Whether {@code waiter}'s attempt on {@code name} is known to wait, so that a release now must wake it. */
    abstract boolean waits(RedisProbe probe, LockStore waiter, String name);

    @Test
    void whatNobodyWaitsForIsReleasedWithoutAMessage() {
        try (RedisProbe probe = new RedisProbe(server().port());
                LockStore store = BackendStores.open(server().uri("timeout=2s"))) {
            long before = probe.calls("publish");
            for (int i = 0; i < 20; i++) {
                attempt(store, "quiet").orElseThrow().release();
            }
            assertThat(probe.calls("publish") - before).as("PUBLISH calls for 20 releases nobody waited for")
                    .isZero();
        }
    }

    @Test
    void aRefusedMarkingAttemptMakesTheNextReleasePublishOnce() throws InterruptedException {
        try (RedisProbe probe = new RedisProbe(server().port());
                LockStore holderStore = BackendStores.open(server().uri("timeout=2s"));
                LockStore otherStore = BackendStores.open(server().uri("timeout=2s"))) {
            Lease held = attempt(holderStore, "marked").orElseThrow();
            assertThat(markingAttempt(otherStore, "marked")).isEmpty();

            long holderTtl = probe.raw().pttl(holderKey("marked"));
            long markerTtl = probe.raw().pttl(waitingKey("marked"));
            assertThat(markerTtl).as("waiting marker's TTL (ms) vs the holder key's %d ms", holderTtl)
                    .isGreaterThan(holderTtl);

            long before = probe.calls("publish");
            held.release();
            assertThat(probe.calls("publish") - before).as("PUBLISH calls of the release after a refusal").isEqualTo(1);
            assertThat(probe.raw().exists(waitingKey("marked"))).as("marker after the release").isFalse();

            attempt(otherStore, "marked").orElseThrow().release();
            assertThat(probe.calls("publish") - before).as("PUBLISH calls after a second release nobody waited for")
                    .isEqualTo(1);
        }
    }

    /**
     * Two clients take turns with a 30 s lease. In odd rounds the holder releases as soon as the other client's thread
     * has started (its attempt usually runs after the release, and then finds the thing free); in even rounds once
     * that client's attempt {@link #waits} (its attempt runs just before the release, or the release lands while the
     * attempt is on its way). Each hand-off must come within 5 s of the release. A lock's waiter that slept through a
     * release without hearing of it would sleep until its 20 s wait ran out (the lease has 30 s); a permit's waiter
     * polls too, backing off to 250 ms, which bounds a release it did not hear of, so for permits the PUBLISH counts
     * above are what show that the message is sent.
     */
    @Test
    void everyHandOffBetweenClientsIsWokenByTheRelease() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (RedisProbe probe = new RedisProbe(server().port());
                LockStore first = BackendStores.open(server().uri("timeout=2s"));
                LockStore second = BackendStores.open(server().uri("timeout=2s"))) {
            LockStore[] stores = {first, second};
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> RedisProbe.backendOf(first).isSubscribed()
                    && RedisProbe.backendOf(second).isSubscribed());
            Lease held = attempt(first, "turns").orElseThrow();
            long lastFence = held.fencingToken();
            for (int round = 1; round <= 60; round++) {
                LockStore waiter = stores[round % 2];
                CountDownLatch started = new CountDownLatch(1);
                Future<Lease> next = pool.submit(() -> {
                    started.countDown();
                    return attempt(waiter, "turns", Duration.ofSeconds(20))
                            .orElseThrow(() -> new AssertionError("no hand-off within 20 s"));
                });
                assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
                if (round % 2 == 0) {
                    Awaitility.await().pollInterval(Duration.ofMillis(1)).atMost(Duration.ofSeconds(10))
                            .until(() -> waits(probe, waiter, "turns"));
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
