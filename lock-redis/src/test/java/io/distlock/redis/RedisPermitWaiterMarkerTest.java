package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Permits follow the locks' waiting-marker rule ({@link WaiterMarkerTestBase}), on a semaphore of one permit, with
 * one difference: only a refused attempt that waits leaves the semaphore's waiting marker, and a waiter counts as
 * waiting once that marker is there. Here too, permits released while others are held send no message.
 */
class RedisPermitWaiterMarkerTest extends WaiterMarkerTestBase {

    private static final RedisPermits KEYS =
            new RedisPermits(null, new RedisKeys("distlock:"), null, "test", null, false);

    @RegisterExtension
    static final OwnRedisServer server = new OwnRedisServer();

    @Override
    OwnRedisServer server() {
        return server;
    }

    @Override
    Optional<Lease> attempt(LockStore store, String name) {
        return store.semaphore(name, 1, LEASE_30S).tryAcquire();
    }

    @Override
    Optional<Lease> attempt(LockStore store, String name, Duration maxWait) throws InterruptedException {
        return store.semaphore(name, 1, LEASE_30S).tryAcquire(maxWait);
    }

    @Override
    Optional<Lease> markingAttempt(LockStore store, String name) throws InterruptedException {
        return attempt(store, name, Duration.ofMillis(20));
    }

    @Override
    String holderKey(String name) {
        return KEYS.holders(name);
    }

    @Override
    String waitingKey(String name) {
        return KEYS.waiting(name);
    }

    @Override
    boolean waits(RedisProbe probe, LockStore waiter, String name) {
        return probe.raw().exists(waitingKey(name));
    }

    @Test
    void permitsOfASemaphoreOfTwoNobodyWaitsForAreReleasedWithoutAMessage() throws InterruptedException {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = LockStore.open(server.uri("timeout=2s"))) {
            long before = probe.calls("publish");
            for (int i = 0; i < 20; i++) {
                Lease one = store.semaphore("quiet-pair", 2, LEASE_30S).acquire();
                Lease two = store.semaphore("quiet-pair", 2, LEASE_30S).tryAcquire().orElseThrow();
                one.release();
                two.release();
            }
            assertThat(probe.calls("publish") - before).as("PUBLISH calls for 40 permit releases nobody waited for")
                    .isZero();
        }
    }

    @Test
    void aRefusedSingleAttemptLeavesNoMarker() {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore holderStore = LockStore.open(server.uri("timeout=2s"));
                LockStore otherStore = LockStore.open(server.uri("timeout=2s"))) {
            Lease held = attempt(holderStore, "single").orElseThrow();
            assertThat(attempt(otherStore, "single")).isEmpty();
            assertThat(probe.raw().exists(waitingKey("single"))).as("marker of an attempt that does not wait")
                    .isFalse();
            held.release();
        }
    }
}
