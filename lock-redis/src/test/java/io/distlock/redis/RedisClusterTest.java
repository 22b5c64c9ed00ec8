package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LockInfo;
import io.distlock.LockStore;
import io.distlock.spi.Grant;
import io.distlock.spi.Renewal;
import io.distlock.spi.Wait;
import io.distlock.tck.OwnershipRules;
import io.distlock.tck.WaitingRules;
import io.distlock.tck.fixture.ClassFixture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * The Cluster store in the default build, on a test-owned 3-master cluster: the kit's waiting and ownership rules
 * (release messages cross the cluster bus; compare-on-token scripts route by the lock's slot), and locks spread over
 * every master are listed by the admin view and renewed in per-slot batches. The whole kit runs in
 * {@link RedisClusterTckTest} (tagged slow).
 */
class RedisClusterTest extends OwnStoreKitBase implements WaitingRules, OwnershipRules {

    @RegisterExtension
    static final ClassFixture<RedisClusterFixture> cluster = new ClassFixture<>(() -> RedisClusterFixture.start(3));

    @Override
    String uri(String query) {
        return cluster.get().uri(query);
    }

    @Test
    void locksOnEveryMasterAreListedAndRenewedInOnePipelineOfPerSlotBatches() throws Exception {
        try (LockStore store = newClient()) {
            RedisBackend backend = RedisProbe.backendOf(store);
            RedisKeys keys = new RedisKeys("distlock:");
            List<Grant> grants = new ArrayList<>();
            Set<Integer> thirds = new HashSet<>();
            for (int i = 0; i < 60; i++) {
                String name = tck().name("spread-" + i);
                thirds.add(JedisClusterCRC16.getSlot(keys.lock(name)) * 3 / 16384); // roughly: which master
                grants.add(backend.acquire(name, Duration.ofSeconds(10), Wait.none()));
            }
            assertThat(grants).doesNotContainNull();
            assertThat(thirds).as("names landed on all three masters").hasSize(3);

            List<Renewal> renewals = grants.stream().map(g -> new Renewal(g, Duration.ofSeconds(60))).toList();
            long roundTrips = backend.renewalRoundTrips();
            assertThat(backend.renew(renewals)).isEmpty();
            // fresh nodes have not cached the renew script: NOSCRIPT costs one more pipeline, once
            assertThat(backend.renewalRoundTrips() - roundTrips).as("first renewal").isBetween(1L, 2L);
            roundTrips = backend.renewalRoundTrips();
            Set<Grant> lost = backend.renew(renewals);
            assertThat(lost).isEmpty();
            assertThat(backend.renewalRoundTrips() - roundTrips).as("one pipeline for all slots").isEqualTo(1);

            List<LockInfo> listed = store.admin().list(tck().name("spread-"), 1000);
            assertThat(listed).extracting(LockInfo::name).hasSize(60).contains(tck().name("spread-0"));
            assertThat(listed).allSatisfy(info -> {
                assertThat(info.timeLeft()).as("renewed to 60 s").isGreaterThan(Duration.ofSeconds(30));
                assertThat(info.fencingToken()).isPositive();
                assertThat(info.owner()).doesNotContain("|");
            });
            for (Grant grant : grants) {
                assertThat(backend.release(grant)).isTrue();
            }
            assertThat(store.admin().list(tck().name("spread-"), 1000)).isEmpty();
        }
    }
}
