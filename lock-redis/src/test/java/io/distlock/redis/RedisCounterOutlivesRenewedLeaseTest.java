package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockInfo;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Adversarial: a lock held with autoRenew across many renewal intervals, then extended to a longer lease, then
 * released with releaseAfter past its lease. At every sample the fencing counter outlives the lock key, and the
 * admin view shows the holder's own token.
 */
class RedisCounterOutlivesRenewedLeaseTest {

    @RegisterExtension
    static final OwnRedisServer server = new OwnRedisServer();

    @Test
    void theCounterOutlivesTheLockKeyThroughRenewalsExtendAndReleaseAfter() throws Exception {
        RedisKeys keys = new RedisKeys("distlock:");
        String lock = keys.lock("renewed");
        String fence = keys.fence("renewed");
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = LockStore.open(server.uri("timeout=1s"))) {
            LockOptions options = LockOptions.defaults().withLeaseTime(Duration.ofMillis(600)).withAutoRenew(true);
            List<String> bad = new ArrayList<>();
            Lease lease = store.lock("renewed", options).tryAcquire().orElseThrow();
            long until = System.nanoTime() + Duration.ofSeconds(4).toNanos(); // about 20 renewals of a 600 ms lease
            int samples = 0;
            while (System.nanoTime() - until < 0) {
                sample(probe, lock, fence, "autoRenew", bad);
                List<LockInfo> view = store.admin().list("renewed", 10);
                if (view.size() != 1 || view.get(0).fencingToken() != lease.fencingToken()) {
                    bad.add("admin view " + view + " for token " + lease.fencingToken());
                }
                samples++;
            }
            assertThat(lease.extend(Duration.ofSeconds(30))).isTrue();
            sample(probe, lock, fence, "extend(30s)", bad);
            lease.releaseAfter(Duration.ofSeconds(20));
            sample(probe, lock, fence, "releaseAfter(20s)", bad);
            assertThat(store.admin().forceRelease("renewed", lease.fencingToken()))
                    .as("force-release by the holder's token after releaseAfter").isTrue();
            assertThat(bad).as("of %d samples", samples).isEmpty();
        }
    }

    private static void sample(RedisProbe probe, String lock, String fence, String when, List<String> bad) {
        long fenceTtl = probe.raw().pttl(fence);
        long lockTtl = probe.raw().pttl(lock);
        if (lockTtl > 0 && fenceTtl < lockTtl) {
            bad.add(when + ": counter PTTL " + fenceTtl + " < lock PTTL " + lockTtl);
        }
    }
}
