package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * A Redlock semaphore attempt refused by a master that records another limit must not delete that master's limit
 * key while the other limit's holders keep their slots: the key is what keeps clients of disagreeing limits apart.
 * The interleaving (another limit's permit taken between this attempt's slot scan and its slot round) is forced
 * through the backend's clock hook, which runs just before the slot round; the stores are real redis-servers.
 */
class RedlockPermitLimitRaceTest {

    private static final List<RedisServer> SERVERS = new ArrayList<>();
    private static final RedlockPermits KEYS = new RedlockPermits(null, new RedlockQuorum(3),
            new RedisKeys("distlock:"), RedisOptions.defaults(), null, null);

    @BeforeAll
    static void startServers() {
        for (int i = 0; i < 3; i++) {
            SERVERS.add(RedisServer.start());
        }
    }

    @AfterAll
    static void stopServers() {
        SERVERS.forEach(RedisServer::close);
        SERVERS.clear();
    }

    @Test
    void aRefusedAttemptOfAnotherLimitLeavesTheRecordedLimitInPlace() throws Exception {
        String name = "review-limit-race";
        List<UnifiedJedis> clients = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (RedisServer s : SERVERS) {
            clients.add(RedisClient.create("127.0.0.1", s.port()));
            names.add("127.0.0.1:" + s.port());
        }
        AtomicBoolean armed = new AtomicBoolean(true);
        AtomicReference<Lease> ofThree = new AtomicReference<>();
        try (LockStore other = LockStore.open(RedlockTckTest.uri(SERVERS, RedlockTckTest.QUERY));
                RedlockBackend two = new RedlockBackend(clients, names, RedisOptions.defaults(), "review", () -> {
                    if (armed.compareAndSet(true, false)) {
                        // between this attempt's scan (it saw no limit) and its slot round: a limit-3 permit,
                        // in slot 3 since slots 1 and 2 are taken first by fillers of limit 3 that then leave
                        ofThree.set(takeSlotThree(other, name));
                    }
                    return System.nanoTime();
                })) {
            assertThatThrownBy(() -> two.acquirePermit(name, 2, Duration.ofSeconds(30), Wait.none()))
                    .as("every master records limit 3 by the slot round").isInstanceOf(IllegalStateException.class);
            Lease three = ofThree.get();
            assertThat(three).isNotNull();
            assertThat(three.isValid()).isTrue();
            for (RedisServer s : SERVERS) {
                try (RedisProbe probe = new RedisProbe(s.port())) {
                    assertThat(probe.raw().exists(KEYS.slot(name, 3))).as("the limit-3 holder's slot").isTrue();
                    assertThat(probe.raw().get(KEYS.limit(name)))
                            .as("limit key on master " + s.port() + " while a limit-3 permit holds slot 3")
                            .isEqualTo("3");
                }
            }
            assertThatThrownBy(() -> two.acquirePermit(name, 2, Duration.ofSeconds(30), Wait.none()))
                    .as("a limit-2 permit beside a held limit-3 permit").isInstanceOf(IllegalStateException.class);
            three.release();
        } finally {
            for (RedisServer s : SERVERS) {
                try (RedisProbe probe = new RedisProbe(s.port())) {
                    probe.raw().del(KEYS.slot(name, 1), KEYS.slot(name, 2), KEYS.slot(name, 3), KEYS.limit(name));
                }
            }
        }
    }

    /** A limit-3 permit that sits in slot 3: slots 1 and 2 are held by fillers while it is taken, then released. */
    private static Lease takeSlotThree(LockStore other, String name) {
        List<Lease> fillers = new ArrayList<>();
            Lease inThree = null;
            while (inThree == null) {
                boolean threeWasFree = !slotSet(name, 3);
                Lease l = other.semaphore(name, 3).tryAcquire().orElseThrow();
                if (threeWasFree && slotSet(name, 3)) {
                    inThree = l;
                } else {
                    fillers.add(l);
                }
            }
            for (Lease f : fillers) {
                f.release();
            }
        return inThree;
    }

    private static boolean slotSet(String name, int index) {
        try (RedisProbe probe = new RedisProbe(SERVERS.get(0).port())) {
            return probe.raw().exists(KEYS.slot(name, index));
        }
    }
}
