package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Jedis's Cluster client re-sends a command after a connection error, a socket timeout included, so a script whose
 * reply was lost runs twice. The scripts must give the same answer the second time: an acquire that finds the lock
 * already holding its own value is a grant with the same fencing token, and a release that finds the lock gone
 * but its own tombstone there is a success. A one-node Cluster (all slots on one test-owned server) announces the
 * port of a {@link FaultProxy}, so every connection of the client goes through it; the proxy swallows one reply.
 */
class RedisClusterRetryTest extends ClusterResendTestBase {

    private static final LockOptions LEASE_30S = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(30));

    @Test
    void anAcquireResentAfterALostReplyIsGrantedWithTheSameFence() throws Exception {
        try (LockStore store = open()) {
            RedisLostAcquireReplyTest.warmUp(store);
            proxy.dropReplyToNext("EVALSHA");
            Optional<Lease> lease = store.lock("resent-acquire", LEASE_30S).tryAcquire();
            assertThat(proxy.awaitDropped(5, TimeUnit.SECONDS)).as("the first reply was swallowed").isTrue();
            assertThat(lease).as("the re-sent acquire found the lock holding its own value").isPresent();
            assertThat(lease.get().fencingToken()).as("one grant, one fence")
                    .isEqualTo(Long.parseLong(probe.raw().get("distlock:{resent-acquire}:fence")));
            lease.get().release();
            assertThat(probe.raw().exists("distlock:{resent-acquire}")).isFalse();
        }
    }

    @Test
    void aReleaseResentAfterALostReplyIsASuccess() throws Exception {
        try (LockStore store = open()) {
            Lease lease = store.lock("resent-release", LEASE_30S).tryAcquire().orElseThrow();
            RedisLostAcquireReplyTest.warmUp(store);
            proxy.dropReplyToNext("EVALSHA");
            lease.release(); // throws LockLostException if the re-sent release answered "not held"
            assertThat(proxy.awaitDropped(5, TimeUnit.SECONDS)).as("the first reply was swallowed").isTrue();
            assertThat(probe.raw().exists("distlock:{resent-release}")).isFalse();
            Lease next = store.lock("resent-release", LEASE_30S).tryAcquire().orElseThrow();
            assertThat(next.fencingToken()).isGreaterThan(lease.fencingToken());
            next.release();
        }
    }

    @Test
    void aReleaseOfALeaseThatExpiredIsStillReportedLost() throws Exception {
        try (LockStore store = open()) {
            Lease lease = store.lock("expired", LockOptions.defaults().withLeaseTime(Duration.ofSeconds(30))
                    .withAutoRenew(false)).tryAcquire().orElseThrow();
            probe.raw().del("distlock:{expired}"); // as if it expired: no release ran, so no tombstone
            org.assertj.core.api.Assertions.assertThatThrownBy(lease::release)
                    .isInstanceOf(io.distlock.LockLostException.class);
        }
    }
}
