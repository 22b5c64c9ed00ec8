package io.distlock.redis;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The waiting-marker rule ({@link WaiterMarkerTestBase}) for locks: any refused attempt, waiting or not, leaves the
 * lock's waiting marker, and a waiter counts as waiting once it has registered in its client.
 */
class RedisWaiterMarkerTest extends WaiterMarkerTestBase {

    private static final RedisKeys KEYS = new RedisKeys("distlock:");

    @RegisterExtension
    static final OwnRedisServer server = new OwnRedisServer();

    @Override
    OwnRedisServer server() {
        return server;
    }

    @Override
    Optional<Lease> attempt(LockStore store, String name) {
        return store.lock(name, LEASE_30S).tryAcquire();
    }

    @Override
    Optional<Lease> attempt(LockStore store, String name, Duration maxWait) throws InterruptedException {
        return store.lock(name, LEASE_30S).tryAcquire(maxWait);
    }

    @Override
    Optional<Lease> markingAttempt(LockStore store, String name) {
        return attempt(store, name);
    }

    @Override
    String holderKey(String name) {
        return KEYS.lock(name);
    }

    @Override
    String waitingKey(String name) {
        return KEYS.waiting(name);
    }

    @Override
    boolean waits(RedisProbe probe, LockStore waiter, String name) {
        return RedisProbe.backendOf(waiter).signals().hasWaiters(name);
    }
}
