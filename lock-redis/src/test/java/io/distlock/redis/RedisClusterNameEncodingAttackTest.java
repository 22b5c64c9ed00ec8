package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockInfo;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import io.distlock.tck.fixture.ClassFixture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Attack (review r9) on the Redis Cluster store with the names of {@link RedisNameEncodingAttackTest#oddNames}: names
 * holding {@code '{'} and {@code '}'} (a hash tag inside the name, or none at all), non-ASCII text and the longest
 * names. Every script's keys must share one slot whatever the name, so each name is locked, renewed, listed,
 * force-released and released with its semaphore beside it, on a test-owned 3-master cluster.
 */
class RedisClusterNameEncodingAttackTest {

    @RegisterExtension
    static final ClassFixture<RedisClusterFixture> cluster = new ClassFixture<>(() -> RedisClusterFixture.start(3));

    @Test
    void everyOddNameWorksOnACluster() throws Exception {
        String prefix = "cenc-" + UUID.randomUUID().toString().substring(0, 8) + ":";
        String uri = cluster.get().uri("timeout=5s&keyPrefix=" + prefix);
        List<String> names = RedisNameEncodingAttackTest.oddNames();
        try (LockStore a = BackendStores.open(uri); LockStore b = BackendStores.open(uri)) {
            List<Lease> held = new ArrayList<>();
            for (String name : names) {
                held.add(a.lock(name).acquire());
                assertThat(b.lock(name).tryAcquire()).as("another client's lock of %s",
                        RedisNameEncodingAttackTest.show(name)).isEmpty();
            }
            assertThat(a.admin().list("", 1000).stream().map(LockInfo::name).toList()).as("listed names")
                    .containsExactlyInAnyOrderElementsOf(names);
            for (int i = 0; i < names.size(); i++) {
                String name = names.get(i);
                String shown = RedisNameEncodingAttackTest.show(name);
                Lease first = held.get(i);
                assertThat(first.extend(Duration.ofSeconds(30))).as("extend of %s", shown).isTrue();
                Lease permit = b.semaphore(name, 2).tryAcquire().orElseThrow();
                first.release();
                Lease second = b.lock(name).tryAcquire(Duration.ofSeconds(10)).orElseThrow();
                assertThat(second.fencingToken()).as("token of %s", shown).isGreaterThan(first.fencingToken());
                assertThat(a.admin().forceRelease(name)).as("force-release of %s", shown).isTrue();
                assertThat(second.extend(Duration.ofSeconds(30))).as("extend after force-release of %s", shown)
                        .isFalse();
                assertThat(permit.isValid()).as("permit of %s", shown).isTrue();
                permit.release();
            }
        }
    }
}
