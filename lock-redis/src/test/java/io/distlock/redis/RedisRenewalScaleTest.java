package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.spi.Grant;
import io.distlock.spi.Renewal;
import io.distlock.spi.Wait;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;

/**
 * 10,000 held leases renew in a handful of script calls and one round trip per renewal batch, counted on a
 * test-owned server with {@code INFO commandstats}, not one call per lease.
 */
class RedisRenewalScaleTest {

    private static final int LEASES = 10_000;
    @RegisterExtension
    static final OwnRedisServer server = new OwnRedisServer();

    @Test
    void tenThousandLeasesRenewInOneRoundTripOfTenScripts() throws Exception {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = BackendStores.open(server.uri("timeout=5s&keyPrefix=direct:"))) {
            RedisBackend backend = RedisProbe.backendOf(store);
            List<Renewal> renewals = new ArrayList<>(LEASES);
            for (int i = 0; i < LEASES; i++) {
                Grant grant = backend.acquire("lease-" + i, Duration.ofSeconds(20), Wait.none());
                assertThat(grant).isNotNull();
                renewals.add(new Renewal(grant, Duration.ofSeconds(60)));
            }
            // a fresh server has not cached the renew script yet: the first renewal meets NOSCRIPT and resends it
            assertThat(backend.renew(renewals.subList(0, 1))).isEmpty();
            long scriptsBefore = probe.calls("evalsha") + probe.calls("eval");
            long roundTripsBefore = backend.renewalRoundTrips();

            Set<Grant> lost = backend.renew(renewals);

            assertThat(lost).isEmpty();
            long scripts = probe.calls("evalsha") + probe.calls("eval") - scriptsBefore;
            assertThat(scripts).as("renew scripts for %d leases", LEASES)
                    .isEqualTo(LEASES / BatchRenewer.BATCH);
            assertThat(backend.renewalRoundTrips() - roundTripsBefore).isEqualTo(1);
            assertThat(minPttl(probe, "direct:", LEASES)).as("every key got the new 60 s lease")
                    .isGreaterThan(30_000);
        }
    }

    @Test
    void backgroundRenewalKeepsTenThousandLeasesWithFewScriptCalls() {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = BackendStores.open(server.uri("timeout=5s&poolSize=4&keyPrefix=store:"))) {
            RedisBackend backend = RedisProbe.backendOf(store);
            LockOptions options = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(4));
            List<Lease> leases = new ArrayList<>(LEASES);
            for (int i = 0; i < LEASES; i++) {
                leases.add(store.lock("lease-" + i, options).tryAcquire().orElseThrow());
            }
            long scriptsBefore = probe.calls("evalsha") + probe.calls("eval");
            long roundTripsBefore = backend.renewalRoundTrips();
            long start = System.nanoTime();

            // hold them for two full lease times: without renewal every one of them would expire
            Awaitility.await().pollDelay(Duration.ofSeconds(8)).atMost(Duration.ofSeconds(30))
                    .until(() -> System.nanoTime() - start >= Duration.ofSeconds(8).toNanos());

            assertThat(leases).allMatch(Lease::isValid);
            assertThat(minPttl(probe, "store:", LEASES)).isPositive();
            long scripts = probe.calls("evalsha") + probe.calls("eval") - scriptsBefore;
            long roundTrips = backend.renewalRoundTrips() - roundTripsBefore;
            // at least 2 renewals per lease happened (20,000+ renewals); per-lease calls would be >= 20,000
            assertThat(scripts).as("renew scripts in 8 s for %d leases", LEASES).isBetween(2L, 400L);
            assertThat(roundTrips).as("renew round trips in 8 s").isBetween(2L, 400L);
            System.out.printf("renewal of %d leases over 8 s: %d scripts, %d round trips%n", LEASES, scripts,
                    roundTrips);
            leases.forEach(Lease::release);
        }
    }

    private static long minPttl(RedisProbe probe, String prefix, int count) {
        long min = Long.MAX_VALUE;
        try (AbstractPipeline pipeline = probe.raw().pipelined()) {
            List<Response<Long>> ttls = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                ttls.add(pipeline.pttl(prefix + "{lease-" + i + "}"));
            }
            pipeline.sync();
            for (Response<Long> ttl : ttls) {
                min = Math.min(min, ttl.get());
            }
        }
        return min;
    }
}
