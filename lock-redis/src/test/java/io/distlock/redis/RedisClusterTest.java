package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.spi.LockInfo;
import io.distlock.tck.OwnershipRules;
import io.distlock.tck.WaitingRules;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * The Cluster store in the default build, on a test-owned 3-master cluster: the kit's waiting and ownership rules
 * (release messages cross the cluster bus; compare-on-token scripts route by the lock's slot), and locks spread over
 * every master are listed by the admin view and renewed in per-slot batches. The whole kit runs in
 * {@link RedisClusterTckTest} (tagged slow).
 */
class RedisClusterTest extends TckRuleGroups implements WaitingRules, OwnershipRules {

    private static RedisClusterFixture cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = RedisClusterFixture.start(3);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Override
    protected LockStore newClient() {
        return LockStore.open(cluster.uri("timeout=2s"));
    }

    @Override
    protected String storeUri() {
        return cluster.uri("");
    }

    @Test
    void locksOnEveryMasterAreAcquiredListedAndRenewedInSlotBatches() {
        try (LockStore store = newClient()) {
            RedisKeys keys = new RedisKeys("distlock:");
            List<Lease> leases = new ArrayList<>();
            Set<Integer> slots = new HashSet<>();
            for (int i = 0; i < 60; i++) {
                String name = tck().name("spread-" + i);
                slots.add(JedisClusterCRC16.getSlot(keys.lock(name)) * 3 / 16384); // which third of the slots
                leases.add(store.lock(name).tryAcquire().orElseThrow());
            }
            assertThat(slots).as("names landed on all three masters").hasSize(3);
            assertThat(leases.get(0).extend(java.time.Duration.ofSeconds(40))).isTrue();
            List<LockInfo> listed = store.admin().list(tck().name("spread-"), 1000);
            assertThat(listed.stream().map(LockInfo::name).collect(Collectors.toSet()))
                    .hasSize(60).contains(tck().name("spread-0"));
            assertThat(listed).allMatch(info -> info.fencingToken() > 0 && !info.owner().contains("|"));
            leases.forEach(Lease::release);
        }
    }
}
