package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockLostException;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The permit scripts under Jedis's Cluster re-sends: a script whose reply was lost runs a second time and must give
 * the first run's answer. An acquire that finds its own member is that grant (same fence, one permit, not "full");
 * a release that finds its member gone but its own tombstone there is a success. The one-node Cluster announces the
 * port of a {@link FaultProxy} that swallows one reply, as in {@link RedisClusterRetryTest}.
 */
class RedisClusterPermitRetryTest extends ClusterResendTestBase {

    private static final LockOptions LEASE_30S = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(30));

    private static RedisPermits keys() {
        return new RedisPermits(null, new RedisKeys("distlock:"), null, "test", null, false);
    }

    /** Caches the permit scripts on the server, so the swallowed reply is the reply of a script that ran. */
    static void warmUpPermits(LockStore store) {
        store.semaphore("warm-up", 1).tryAcquire().orElseThrow().release();
    }

    @Test
    void aPermitAcquireResentAfterALostReplyIsOnePermitWithOneFence() throws Exception {
        try (LockStore store = open()) {
            warmUpPermits(store);
            proxy.dropReplyToNext("EVALSHA");
            Optional<Lease> permit = store.semaphore("resent-acquire", 1, LEASE_30S).tryAcquire();
            assertThat(proxy.awaitDropped(5, TimeUnit.SECONDS)).as("the first reply was swallowed").isTrue();
            assertThat(permit).as("the re-sent acquire found its own member, not a full semaphore").isPresent();
            assertThat(probe.raw().zcard(keys().holders("resent-acquire"))).as("one member").isEqualTo(1);
            assertThat(permit.get().fencingToken()).as("one grant, one fence")
                    .isEqualTo(Long.parseLong(probe.raw().get(keys().fence("resent-acquire"))));
            permit.get().release();
            assertThat(probe.raw().exists(keys().holders("resent-acquire"))).isFalse();
        }
    }

    @Test
    void aPermitAcquireResentAfterALostReplyTakesOnePermitOfTwo() throws Exception {
        try (LockStore store = open(); LockStore other = open()) {
            warmUpPermits(store);
            proxy.dropReplyToNext("EVALSHA");
            Lease mine = store.semaphore("resent-of-two", 2, LEASE_30S).tryAcquire().orElseThrow();
            assertThat(proxy.awaitDropped(5, TimeUnit.SECONDS)).as("the first reply was swallowed").isTrue();
            long counter = Long.parseLong(probe.raw().get(keys().fence("resent-of-two")));
            assertThat(mine.fencingToken()).as("the re-send took no second fence").isEqualTo(counter);
            Lease theirs = other.semaphore("resent-of-two", 2, LEASE_30S).tryAcquire()
                    .orElseThrow(() -> new AssertionError("the re-sent acquire took both permits"));
            assertThat(theirs.fencingToken()).isGreaterThan(mine.fencingToken());
            theirs.release();
            mine.release();
        }
    }

    @Test
    void aPermitReleaseResentAfterALostReplyIsASuccess() throws Exception {
        try (LockStore store = open()) {
            Lease permit = store.semaphore("resent-release", 1, LEASE_30S).tryAcquire().orElseThrow();
            warmUpPermits(store);
            proxy.dropReplyToNext("EVALSHA");
            permit.release(); // throws LockLostException if the re-sent release answered "not held"
            assertThat(proxy.awaitDropped(5, TimeUnit.SECONDS)).as("the first reply was swallowed").isTrue();
            assertThat(probe.raw().exists(keys().holders("resent-release"))).isFalse();
            Lease next = store.semaphore("resent-release", 1, LEASE_30S).tryAcquire().orElseThrow();
            assertThat(next.fencingToken()).isGreaterThan(permit.fencingToken());
            next.release();
        }
    }

    @Test
    void aReleaseOfAPermitThatExpiredIsStillReportedLost() throws Exception {
        try (LockStore store = open()) {
            Lease permit = store.semaphore("expired", 1, LEASE_30S.withAutoRenew(false)).tryAcquire().orElseThrow();
            probe.raw().del(keys().holders("expired")); // as if it expired: no release ran, so no tombstone
            assertThatThrownBy(permit::release).isInstanceOf(LockLostException.class).hasMessageContaining("expired");
        }
    }
}
