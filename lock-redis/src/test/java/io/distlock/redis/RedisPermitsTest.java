package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockException;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.DistributedSemaphore;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.util.JedisClusterCRC16;

/** Redis semaphores on a server of the test's own: key layout, what survives whom, script cache loss. */
class RedisPermitsTest {

    @RegisterExtension
    static final OwnRedisServer server = new OwnRedisServer();

    private static RedisPermits permits() {
        return new RedisPermits(null, new RedisKeys("distlock:"), null, "test", null, false);
    }

    @Test
    void everyKeyOfOneSemaphoreSharesOneClusterSlot() {
        RedisPermits permits = permits();
        for (String name : new String[] {"plain", "with}brace", "a:b:c"}) {
            int slot = JedisClusterCRC16.getSlot(permits.holders(name));
            assertThat(JedisClusterCRC16.getSlot(permits.limit(name))).as(name).isEqualTo(slot);
            assertThat(JedisClusterCRC16.getSlot(permits.fence(name))).as(name).isEqualTo(slot);
            assertThat(JedisClusterCRC16.getSlot(permits.fences(name))).as(name).isEqualTo(slot);
            assertThat(JedisClusterCRC16.getSlot(permits.releasedTombstone(name, "token"))).as(name).isEqualTo(slot);
        }
        assertThat(permits.holders("x")).isNotEqualTo(new RedisKeys("distlock:").lock("x"));
    }

    @Test
    void aDeletedFenceCounterNeverRepeatsAToken() throws InterruptedException {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = LockStore.open(server.uri("timeout=1s"))) {
            DistributedSemaphore semaphore = store.semaphore("operator", 2);
            Lease first = semaphore.acquire();
            first.release();
            probe.raw().del(permits().fence("operator")); // an operator deletes the counter
            Lease second = semaphore.acquire();
            assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
            second.release();
        }
    }

    /**
     * Values an operator may leave in the counter that no grant writes: not a number, not finite, past 2^53 (and
     * past {@code INCR}'s range), below 0. The lock's rule counts them as none, so the fence starts at the clock.
     */
    @ParameterizedTest
    @ValueSource(strings = {"not a number", "nan", "inf", "-inf", "1e19", "99999999999999999999", "-5",
            "9007199254740993", "9223372036854775807"})
    void aCounterThatHoldsNoFencingTokenCountsAsNoneAndLeavesNoPhantomHolder(String bad)
            throws InterruptedException {
        String name = "bad-counter-" + bad;
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = LockStore.open(server.uri("timeout=1s"))) {
            DistributedSemaphore semaphore = store.semaphore(name, 3, LockOptions.defaults().withLeaseTime(
                    Duration.ofSeconds(30)));
            probe.raw().set(permits().fence(name), bad);
            long clockMicros = probe.serverClockMicros();
            Lease first = semaphore.tryAcquire()
                    .orElseThrow(() -> new AssertionError("refused over counter '" + bad + "'"));
            assertThat(first.fencingToken()).as("first token over counter '%s'", bad)
                    .isGreaterThanOrEqualTo(clockMicros).isLessThan(1L << 53);
            Lease second = semaphore.tryAcquire().orElseThrow();
            assertThat(second.fencingToken()).as("second token").isGreaterThan(first.fencingToken())
                    .isLessThan(1L << 53);
            assertThat(probe.raw().zcard(permits().holders(name))).as("holders in the set").isEqualTo(2);
            assertThat(semaphore.availablePermits()).isEqualTo(1);
            first.release();
            second.release();
            assertThat(semaphore.availablePermits()).as("nothing left behind").isEqualTo(3);
            Lease third = semaphore.tryAcquire().orElseThrow();
            assertThat(third.fencingToken()).as("a later grant").isGreaterThan(second.fencingToken());
            third.release();
        }
    }

    /**
     * Values an operator may leave in the limit key that no grant writes (every grant writes a whole number from 1 to
     * {@link RedisPermits#MAX_PERMITS}). While the semaphore has a holder, the limit it stated is unknown: taking the
     * caller's limit could let in more holders than it stated, so the acquire fails with a clear error and adds no
     * holder; once the holders are gone the next grant records its limit again.
     */
    @ParameterizedTest
    @ValueSource(strings = {"garbage", "0", "-3", "2.5", "nan", "inf", "100001"})
    void aLimitKeyThatHoldsNoLimitFailsTheAcquireClearlyAndAddsNoHolder(String bad) throws InterruptedException {
        String name = "bad-limit-" + bad;
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = LockStore.open(server.uri("timeout=1s"))) {
            DistributedSemaphore semaphore = store.semaphore(name, 3, LockOptions.defaults().withLeaseTime(
                    Duration.ofSeconds(30)));
            Lease holder = semaphore.tryAcquire().orElseThrow();
            probe.raw().set(permits().limit(name), bad); // an operator's value, under a live holder
            assertThatThrownBy(semaphore::tryAcquire).as("an acquire over limit key '%s'", bad)
                    .isInstanceOf(LockException.class).hasMessageContaining("semaphore '" + name + "'")
                    .hasMessageContaining(permits().limit(name)).hasMessageContaining("holds no limit");
            assertThat(probe.raw().zcard(permits().holders(name))).as("holders in the set").isEqualTo(1);
            holder.release();
            Lease next = semaphore.tryAcquire()
                    .orElseThrow(() -> new AssertionError("refused once the holders were gone"));
            assertThat(probe.raw().get(permits().limit(name))).as("the limit recorded again").isEqualTo("3");
            next.release();
        }
    }

    /**
     * A re-sent acquire (its first run granted, its reply lost) that meets a limit key holding no limit fails: the
     * caller gets no grant, so the script takes back the member its first run added instead of leaving a holder
     * nobody renews or releases.
     */
    @Test
    void aReSentAcquireRefusedForItsLimitKeyLeavesNoPhantomHolder() {
        String name = "resent-bad-limit";
        RedisPermits keys = permits();
        try (RedisProbe probe = new RedisProbe(server.port())) {
            List<String> keyList = List.of(keys.holders(name), keys.limit(name), keys.fence(name), keys.fences(name),
                    keys.waiting(name));
            long inAMinute = probe.serverClockMicros() / 1000 + 60_000;
            probe.raw().zadd(keys.holders(name), inAMinute, "other|holder"); // a live holder of limit 2
            probe.raw().set(keys.limit(name), "2");
            List<String> args = List.of("a|me", "30000", "2", "0", "-1");
            List<?> granted = (List<?>) RedisPermitScripts.ACQUIRE.run(probe.raw(), keyList, args);
            assertThat(granted.get(0)).as("first run").isEqualTo(1L);
            probe.raw().set(keys.limit(name), "garbage");
            List<?> again = (List<?>) RedisPermitScripts.ACQUIRE.run(probe.raw(), keyList, args);
            assertThat(again.toArray()).as("re-sent run's reply").containsExactly(-1L, -1L);
            assertThat(probe.raw().zscore(keys.holders(name), "a|me")).as("the re-sent call's member").isNull();
            assertThat(probe.raw().hget(keys.fences(name), "a|me")).as("its fence").isNull();
            probe.raw().del(keys.holders(name), keys.limit(name), keys.fences(name), keys.fence(name));
        }
    }

    /**
     * Values an operator may leave in a live holder's field of the fences hash that hold no fencing token (by the
     * counter's rule, {@link RedisScripts#readFencingToken}, and below 1). The holder's re-sent acquire takes a new
     * fence by the counter instead of answering the value.
     */
    @ParameterizedTest
    @ValueSource(strings = {"garbage", "nan", "inf", "-5", "0", "1e19", "9007199254740993"})
    void aReSentAcquireOverAFenceFieldThatHoldsNoTokenTakesANewFence(String bad) {
        String name = "bad-fence-field-" + bad;
        RedisPermits keys = permits();
        try (RedisProbe probe = new RedisProbe(server.port())) {
            List<String> keyList = List.of(keys.holders(name), keys.limit(name), keys.fence(name), keys.fences(name),
                    keys.waiting(name));
            List<String> args = List.of("a|me", "30000", "2", "0", "-1");
            List<?> granted = (List<?>) RedisPermitScripts.ACQUIRE.run(probe.raw(), keyList, args);
            assertThat(granted.get(0)).as("first run").isEqualTo(1L);
            long first = (Long) granted.get(1);
            probe.raw().hset(keys.fences(name), "a|me", bad); // an operator's value in the live holder's field
            List<?> again = (List<?>) RedisPermitScripts.ACQUIRE.run(probe.raw(), keyList, args);
            assertThat(again.get(0)).as("re-sent run").isEqualTo(1L);
            assertThat((Long) again.get(1)).as("re-sent run's token over fence field '%s'", bad)
                    .isGreaterThan(first).isLessThan(1L << 53);
            assertThat(probe.raw().hget(keys.fences(name), "a|me")).as("the field holds the token answered")
                    .isEqualTo(again.get(1).toString());
            assertThat(probe.raw().zcard(keys.holders(name))).as("one holder, not counted twice").isEqualTo(1);
            probe.raw().del(keys.holders(name), keys.limit(name), keys.fences(name), keys.fence(name));
        }
    }

    /** The admin view reads a holder's fence field by the same rule: one that holds no token shows 0, as none. */
    @ParameterizedTest
    @ValueSource(strings = {"garbage", "nan", "-5", "1e19"})
    void theAdminViewShowsAFenceFieldThatHoldsNoTokenAsNone(String bad) throws InterruptedException {
        String name = "listed-bad-fence-" + bad;
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = LockStore.open(server.uri("timeout=1s&keyPrefix=bad-fence-admin:"))) {
            Lease lease = store.semaphore(name, 1).acquire();
            String member = probe.raw().zrange("bad-fence-admin:{" + name + "}:sem", 0, 0).get(0);
            probe.raw().hset("bad-fence-admin:{" + name + "}:semfences", member, bad);
            assertThat(store.admin().listPermits(name, 10)).extracting(io.distlock.LockInfo::fencingToken)
                    .as("listed token over fence field '%s'", bad).containsExactly(0L);
            lease.release();
        }
    }

    @Test
    void theHoldersAndTheLimitGoWithTheLastHolder() throws InterruptedException {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = LockStore.open(server.uri("timeout=1s"))) {
            LockOptions options = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(10));
            Lease lease = store.semaphore("tidy", 3, options).acquire();
            long ttl = probe.raw().pttl(permits().limit("tidy"));
            assertThat(ttl).as("the limit lives as long as the last holder").isPositive().isLessThanOrEqualTo(10_000);
            assertThat(probe.raw().pttl(permits().holders("tidy"))).isPositive().isLessThanOrEqualTo(10_000);
            lease.release();
            assertThat(probe.raw().exists(permits().holders("tidy"))).as("no holder left, no set").isFalse();
            assertThat(probe.raw().exists(permits().fences("tidy"))).as("no holder left, no fences").isFalse();
            assertThat(probe.raw().pttl(permits().fence("tidy"))).as("the counter stays a grace past the lease")
                    .isGreaterThan(10_000).isLessThanOrEqualTo(10_000 + CounterRetention.GRACE_MS + 1);
        }
    }

    @Test
    void expiredHoldersNeitherFillTheSetNorKeepTheirLimit() throws InterruptedException {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = LockStore.open(server.uri("timeout=1s"))) {
            RedisPermits keys = permits();
            // holders that crashed long ago (their expiry, by the server clock, is in 1970), of a limit of 5
            probe.raw().zadd(keys.holders("stale"), 1, "crashed-1|nobody");
            probe.raw().zadd(keys.holders("stale"), 2, "crashed-2|nobody");
            probe.raw().set(keys.limit("stale"), "5");
            Lease only = store.semaphore("stale", 1).tryAcquire()
                    .orElseThrow(() -> new AssertionError("refused by expired holders or their limit"));
            assertThat(probe.raw().zcard(keys.holders("stale"))).as("the expired holders were dropped").isEqualTo(1);
            assertThat(store.semaphore("stale", 1).tryAcquire()).as("a second permit of 1").isEmpty();
            only.release();

            probe.raw().zadd(keys.holders("stale"), 1, "crashed-3|nobody");
            Lease first = store.semaphore("stale", 2).tryAcquire().orElseThrow();
            Lease second = store.semaphore("stale", 2).tryAcquire()
                    .orElseThrow(() -> new AssertionError("the expired member took the second place"));
            assertThat(store.semaphore("stale", 2).tryAcquire()).as("a third permit of 2").isEmpty();
            assertThat(probe.raw().zcard(keys.holders("stale"))).isEqualTo(2);
            first.release();
            second.release();
        }
    }

    @Test
    void permitsAndLocksShareTheRestartGuardAndItsMarkerFormat() throws InterruptedException {
        LockOptions short1s = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(1));
        try (LockStore store = LockStore.open(server.uri("timeout=1s&restartGuard=true&maxLeaseTime=1s"))) {
            // the lock's acquire writes the marker first (and waits out the window), then permits read the same one
            Lease lock = store.lock("guarded-lock", short1s).tryAcquire(Duration.ofSeconds(10)).orElseThrow();
            lock.release();
            Lease permit = store.semaphore("guarded-permits", 1, short1s).tryAcquire(Duration.ofSeconds(10))
                    .orElseThrow();
            permit.release();
        }
    }

    @Test
    void aRestoredGuardMarkerOfAnotherServerProcessHoldsPermitsBack() throws InterruptedException {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = LockStore.open(server.uri("timeout=1s&restartGuard=true&maxLeaseTime=3s"))) {
            DistributedSemaphore semaphore = store.semaphore("restored", 1,
                    LockOptions.defaults().withLeaseTime(Duration.ofSeconds(3)));
            probe.raw().del(new RedisKeys("distlock:").guard()); // a first start: no marker yet
            semaphore.tryAcquire(Duration.ofSeconds(10)).orElseThrow().release();
            // a snapshot brings back a marker that another server process wrote, its window long past: after such a
            // restart a permit held before it may be gone from the set while its holder still counts on it
            probe.raw().set(new RedisKeys("distlock:").guard(), "1");
            assertThat(semaphore.tryAcquire()).as("nothing granted in the window a restart opens").isEmpty();
            Lease later = semaphore.tryAcquire(Duration.ofSeconds(10)).orElseThrow();
            later.release();
        }
    }

    @Test
    void anEmptiedScriptCacheIsTransparent() throws InterruptedException {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = LockStore.open(server.uri("timeout=1s"))) {
            DistributedSemaphore semaphore = store.semaphore("flushed", 2, LockOptions.defaults().withLeaseTime(
                    Duration.ofSeconds(10)));
            probe.raw().scriptFlush();
            Lease lease = semaphore.acquire();
            probe.raw().scriptFlush();
            assertThat(lease.extend(Duration.ofSeconds(20))).isTrue(); // the pipelined renew path
            probe.raw().scriptFlush();
            assertThat(semaphore.availablePermits()).isEqualTo(1);
            probe.raw().scriptFlush();
            lease.release();
            assertThat(semaphore.availablePermits()).isEqualTo(2);
        }
    }

    @Test
    void heldPermitsAreListedInTheAdminViewWithoutTheirOwnerTokens() throws InterruptedException {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = LockStore.open(server.uri("timeout=1s&keyPrefix=permit-admin:"))) {
            LockOptions options = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(10));
            Lease a1 = store.semaphore("api", 2, options).acquire();
            Lease a2 = store.semaphore("api", 2, options).acquire();
            Lease b = store.semaphore("with}brace", 1, options).acquire();
            Lease lock = store.lock("api").acquire();
            java.util.List<io.distlock.LockInfo> permits = store.admin().listPermits("", 10);
            assertThat(permits).extracting(io.distlock.LockInfo::name).containsExactly("api", "api", "with}brace");
            assertThat(permits).extracting(io.distlock.LockInfo::fencingToken)
                    .containsExactly(a1.fencingToken(), a2.fencingToken(), b.fencingToken());
            assertThat(permits.get(0).timeLeft()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(10));
            String member = probe.raw().zrange("permit-admin:{api}:sem", 0, 0).get(0);
            String secret = member.substring(0, member.indexOf('|'));
            assertThat(permits).allSatisfy(p -> assertThat(p.owner()).doesNotContain(secret).contains(
                    String.valueOf(ProcessHandle.current().pid())));
            assertThat(store.admin().listPermits("wi", 10)).hasSize(1);
            assertThat(store.admin().listPermits("", 2)).hasSize(2);
            assertThat(store.admin().list("", 10)).extracting(io.distlock.LockInfo::name).containsExactly("api");
            a1.release();
            a2.release();
            b.release();
            lock.release();
            assertThat(store.admin().listPermits("", 10)).isEmpty();
        }
    }
}
