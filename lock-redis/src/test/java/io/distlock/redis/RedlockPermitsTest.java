package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockException;
import io.distlock.LockStore;
import io.distlock.DistributedSemaphore;
import io.distlock.StoreUnavailableException;
import io.distlock.spi.Grant;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * Redlock semaphores on 5 redis-servers of the test's own: a permit is a slot won on a majority, so masters that are
 * down or hold a minority's leftovers neither block a free slot nor let a held one be taken twice; tokens are
 * written back; a late attempt is not won and leaves nothing; a master recording another limit refuses.
 */
class RedlockPermitsTest {

    private static final List<RedisServer> SERVERS = new ArrayList<>();
    private static final RedlockPermits KEYS = new RedlockPermits(null, new RedlockQuorum(5),
            new RedisKeys("distlock:"), RedisOptions.defaults(), null, null);

    @BeforeAll
    static void startServers() {
        for (int i = 0; i < 5; i++) {
            SERVERS.add(RedisServer.start());
        }
    }

    @AfterAll
    static void stopServers() {
        SERVERS.forEach(RedisServer::close);
        SERVERS.clear();
    }

    private static LockStore open() {
        return LockStore.open(RedlockTckTest.uri(SERVERS, RedlockTckTest.QUERY));
    }

    @Test
    void permitsWorkWithTwoOfFiveMastersDownAndKeepTheLimit() throws Exception {
        try (LockStore one = open(); LockStore two = open()) {
            SERVERS.subList(3, 5).forEach(RedisServer::stop);
            try {
                DistributedSemaphore mine = one.semaphore("two-down", 2);
                Lease first = mine.tryAcquire().orElseThrow();
                Lease second = two.semaphore("two-down", 2).tryAcquire().orElseThrow();
                assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
                assertThat(two.semaphore("two-down", 2).tryAcquire()).as("a third permit of 2").isEmpty();
                assertThat(mine.availablePermits()).isZero();
                first.release();
                assertThat(mine.availablePermits()).isEqualTo(1);
                Lease third = two.semaphore("two-down", 2).tryAcquire().orElseThrow();
                assertThat(third.fencingToken()).isGreaterThan(second.fencingToken());
                second.release();
                third.release();
            } finally {
                SERVERS.subList(3, 5).forEach(RedisServer::startAgain);
            }
        }
    }

    @Test
    void aSlotHeldByAMinorityIsFreeAndASlotHeldByAMajorityIsNot() throws Exception {
        String name = "minority";
        // slot 1 is held by someone else on 3 masters (a majority), slot 2 only on 2 (a failed attempt's leftovers)
        for (int i = 0; i < 5; i++) {
            try (RedisProbe probe = new RedisProbe(SERVERS.get(i).port())) {
                probe.raw().psetex(KEYS.slot(name, 1), 30_000, "other|holder");
                if (i < 2) {
                    probe.raw().psetex(KEYS.slot(name, 2), 30_000, "leftover|holder");
                }
                probe.raw().psetex(KEYS.limit(name), 30_000, "2");
            }
        }
        try (LockStore store = open()) {
            DistributedSemaphore semaphore = store.semaphore(name, 2);
            assertThat(semaphore.availablePermits()).as("slot 1 counts, slot 2 does not").isEqualTo(1);
            Lease permit = semaphore.tryAcquire().orElseThrow(() -> new AssertionError("slot 2 is free on 3 of 5"));
            assertThat(semaphore.tryAcquire()).as("slot 1 is held by a majority, slot 2 by us").isEmpty();
            permit.release();
        } finally {
            for (RedisServer s : SERVERS) {
                try (RedisProbe probe = new RedisProbe(s.port())) {
                    probe.raw().del(KEYS.slot(name, 1), KEYS.slot(name, 2), KEYS.limit(name));
                }
            }
        }
    }

    @Test
    void theFenceIsWrittenBackToEveryGrantingMaster() throws Exception {
        String name = "write-back";
        try (RedisProbe probe = new RedisProbe(SERVERS.get(0).port()); LockStore store = open()) {
            probe.raw().set(KEYS.fence(name), "4000000000000000"); // one master far ahead of the clock (µs)
            Lease permit = store.semaphore(name, 3).tryAcquire().orElseThrow();
            long counter = 4_000_000_000_000_100L; // one step of 100 past the master ahead; the slot offset below it
            assertThat(permit.fencingToken()).isBetween(counter, counter + 2);
            for (RedisServer s : SERVERS) {
                try (RedisProbe each = new RedisProbe(s.port())) {
                    assertThat(Long.parseLong(each.raw().get(KEYS.fence(name))))
                            .as("master " + s.port()).isGreaterThanOrEqualTo(counter);
                }
            }
            permit.release();
            Lease next = store.semaphore(name, 3).tryAcquire().orElseThrow();
            assertThat(next.fencingToken()).isGreaterThan(permit.fencingToken());
            next.release();
        }
    }

    @Test
    void anAttemptThatOutlastsItsLeaseIsNotWonAndLeavesNoSlotBehind() throws Exception {
        List<UnifiedJedis> clients = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (RedisServer s : SERVERS) {
            clients.add(RedisClient.create("127.0.0.1", s.port()));
            names.add("127.0.0.1:" + s.port());
        }
        AtomicLong now = new AtomicLong(); // each reading 9.9 s after the last: longer than a 10 s lease's validity
        String name = "slow-permit";
        try (RedlockBackend slow = new RedlockBackend(clients, names, RedisOptions.defaults(), "test",
                () -> now.getAndAdd(Duration.ofMillis(9_900).toNanos()))) {
            Grant grant = slow.acquirePermit(name, 2, Duration.ofSeconds(10), Wait.none());
            assertThat(grant).as("granted by all 5 masters, but too late").isNull();
        }
        for (RedisServer s : SERVERS) {
            try (RedisProbe probe = new RedisProbe(s.port())) {
                assertThat(probe.raw().exists(KEYS.slot(name, 1))).isFalse();
                assertThat(probe.raw().exists(KEYS.slot(name, 2))).isFalse();
                assertThat(probe.raw().exists(KEYS.limit(name))).as("no slot left, no limit").isFalse();
            }
        }
    }

    @Test
    void aMasterRecordingAnotherLimitRefusesTheAcquire() {
        String name = "stale-limit";
        try (RedisProbe probe = new RedisProbe(SERVERS.get(4).port()); LockStore store = open()) {
            probe.raw().psetex(KEYS.limit(name), 30_000, "3");
            assertThatThrownBy(() -> store.semaphore(name, 2).tryAcquire()).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(name).hasMessageContaining("3").hasMessageContaining("2");
            probe.raw().del(KEYS.limit(name));
        }
    }

    /**
     * Values an operator may leave in one master's limit key that no grant writes (every grant writes a whole number
     * from 1 to {@link RedlockPermits#MAX_PERMITS}): the limit the holders stated is unknown, so an attempt fails with
     * a clear error and leaves no slot, and so does counting the permits; once the key is deleted the name works.
     */
    @ParameterizedTest
    @ValueSource(strings = {"garbage", "0", "-3", "2.5", "nan", "inf", "101"})
    void aLimitKeyThatHoldsNoLimitFailsAttemptsAndCountsClearly(String bad) throws Exception {
        String name = "bad-limit-" + bad;
        try (RedisProbe spoiled = new RedisProbe(SERVERS.get(0).port()); LockStore store = open()) {
            DistributedSemaphore semaphore = store.semaphore(name, 2);
            Lease holder = semaphore.tryAcquire().orElseThrow();
            spoiled.raw().set(KEYS.limit(name), bad); // an operator's value on one master, under a live holder
            assertThatThrownBy(semaphore::availablePermits).as("counting over limit key '%s'", bad)
                    .isInstanceOf(LockException.class).hasMessageContaining("holds no limit");
            assertThatThrownBy(semaphore::tryAcquire).as("an attempt over limit key '%s'", bad)
                    .isInstanceOf(LockException.class).hasMessageContaining("semaphore '" + name + "'")
                    .hasMessageContaining(KEYS.limit(name)).hasMessageContaining("holds no limit");
            for (RedisServer s : SERVERS) {
                try (RedisProbe probe = new RedisProbe(s.port())) {
                    assertThat(probe.raw().exists(KEYS.slot(name, 1)) && probe.raw().exists(KEYS.slot(name, 2)))
                            .as("a second slot on master %d", s.port()).isFalse();
                }
            }
            spoiled.raw().del(KEYS.limit(name));
            assertThat(semaphore.availablePermits()).isEqualTo(1);
            holder.release();
        }
    }

    /** The slot script answers a limit key that holds no limit with a reply of two numbers, never a short one. */
    @Test
    void theSlotScriptAnswersALimitKeyThatHoldsNoLimitInFull() {
        String name = "bad-limit-script";
        try (RedisProbe probe = new RedisProbe(SERVERS.get(0).port())) {
            probe.raw().set(KEYS.limit(name), "garbage");
            List<?> reply = (List<?>) RedlockPermitScripts.ACQUIRE.run(probe.raw(),
                    List.of(KEYS.slot(name, 1), KEYS.limit(name), KEYS.fence(name)),
                    List.of("a|me", "30000", "2", "0", Integer.toString(RedlockPermits.TOKEN_STEP)));
            assertThat(reply.toArray()).containsExactly(-1L, -1L);
            assertThat(probe.raw().exists(KEYS.slot(name, 1))).as("no slot taken").isFalse();
            probe.raw().del(KEYS.limit(name));
        }
    }

    @Test
    void threeOfFiveMastersDownIsUnavailable() {
        try (LockStore store = open()) {
            SERVERS.subList(2, 5).forEach(RedisServer::stop);
            try {
                assertThatThrownBy(() -> store.semaphore("three-down", 2).tryAcquire())
                        .isInstanceOf(StoreUnavailableException.class).hasMessageContaining("fewer than 3 of 5");
            } finally {
                SERVERS.subList(2, 5).forEach(RedisServer::startAgain);
            }
        }
    }

    @Test
    void aPermitGrantNeverShowsItsOwnerValue() throws Exception {
        try (LockStore store = open()) {
            Lease permit = store.semaphore("secret", 1).tryAcquire().orElseThrow();
            Grant grant = new Grant("secret", "t", permit.fencingToken(),
                    new RedlockPermits.Slot(1, 1, "token-secret|holder"));
            assertThat(grant.handle().toString()).doesNotContain("token-secret");
            permit.release();
        }
    }
}
