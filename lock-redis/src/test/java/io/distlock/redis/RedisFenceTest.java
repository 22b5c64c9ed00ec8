package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.StaleFenceException;
import io.distlock.tck.fixture.StoreServers;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * {@link RedisFence} on a real Redis (the shared server, keys under a prefix unique to the run, deleted afterwards):
 * the stale write refused and nothing changed, equal tokens accepted, several fields written or refused together,
 * tokens beyond 2^53 compared exactly, concurrent writers leaving the highest token's data, and bad input refused.
 */
class RedisFenceTest {

    private static final String PREFIX = "distlock-test:fence:" + UUID.randomUUID() + ":";
    private static UnifiedJedis jedis;
    private static RedisFence fence;

    @BeforeAll
    static void connect() {
        URI uri = URI.create(StoreServers.redis());
        jedis = RedisClient.builder().hostAndPort(new HostAndPort(uri.getHost(), uri.getPort())).build();
        fence = RedisFence.on(jedis);
    }

    @AfterAll
    static void cleanUp() {
        for (String key : jedis.keys(PREFIX + "*")) {
            jedis.del(key);
        }
        jedis.close();
    }

    @Test
    void aFirstWriteRecordsItsTokenBesideTheData() {
        String key = PREFIX + "first";
        assertThat(fence.highest(key)).isZero();
        fence.hset(key, "status", "paid", 3);
        assertThat(jedis.hgetAll(key)).containsExactlyInAnyOrderEntriesOf(Map.of("status", "paid", "fence", "3"));
        assertThat(fence.highest(key)).isEqualTo(3);
    }

    @Test
    void aStaleWriteIsRefusedAndChangesNothing() {
        String key = PREFIX + "stale";
        fence.hset(key, "status", "written by B", 6);
        assertThatThrownBy(() -> fence.hset(key, "status", "written by A", 5))
                .isInstanceOfSatisfying(StaleFenceException.class, e -> {
                    assertThat(e.resource()).isEqualTo(key);
                    assertThat(e.fencingToken()).isEqualTo(5);
                    assertThat(e.recordedToken()).isEqualTo(6);
                    assertThat(e.getMessage()).contains("'" + key + "'", "5", "6");
                });
        assertThatThrownBy(() -> fence.hset(key, "other", "x", 1)).isInstanceOf(StaleFenceException.class);
        assertThat(jedis.hgetAll(key)).containsExactlyInAnyOrderEntriesOf(
                Map.of("status", "written by B", "fence", "6"));
    }

    @Test
    void theSameTokenTwiceAndAHigherOneAreAccepted() {
        String key = PREFIX + "equal";
        fence.hset(key, "n", "1", 4);
        fence.hset(key, "n", "2", 4);
        assertThat(jedis.hget(key, "n")).isEqualTo("2");
        fence.hset(key, "n", "3", 10); // 10 > 4 although "10" < "4" as text
        assertThat(jedis.hget(key, "n")).isEqualTo("3");
        assertThatThrownBy(() -> fence.hset(key, "n", "4", 9)).isInstanceOf(StaleFenceException.class);
        assertThat(fence.highest(key)).isEqualTo(10);
    }

    @Test
    void severalFieldsAreWrittenOrRefusedTogether() {
        String key = PREFIX + "fields";
        Map<String, String> order = new LinkedHashMap<>();
        order.put("status", "shipped");
        order.put("carrier", "post");
        fence.hset(key, order, 2);
        assertThatThrownBy(() -> fence.hset(key, Map.of("status", "cancelled", "refund", "yes"), 1))
                .isInstanceOf(StaleFenceException.class);
        assertThat(jedis.hgetAll(key)).containsExactlyInAnyOrderEntriesOf(
                Map.of("status", "shipped", "carrier", "post", "fence", "2"));
    }

    @Test
    void tokensBeyondTwoToThe53AreComparedExactly() {
        String key = PREFIX + "big";
        long big = (1L << 53) + 1; // the same double as 2^53
        fence.hset(key, "v", "new", big);
        assertThatThrownBy(() -> fence.hset(key, "v", "old", big - 1))
                .isInstanceOfSatisfying(StaleFenceException.class, e -> assertThat(e.recordedToken()).isEqualTo(big));
        fence.hset(key, "v", "max", Long.MAX_VALUE);
        assertThatThrownBy(() -> fence.hset(key, "v", "old", Long.MAX_VALUE - 1))
                .isInstanceOf(StaleFenceException.class);
        assertThat(jedis.hget(key, "v")).isEqualTo("max");
        assertThat(fence.highest(key)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void concurrentWritersLeaveTheHighestTokensData() throws Exception {
        String key = PREFIX + "race";
        int writers = 8;
        int writes = 50;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<long[]>> results = new ArrayList<>();
        try {
            for (int w = 0; w < writers; w++) {
                int id = w;
                Callable<long[]> writer = () -> {
                    start.await();
                    long accepted = 0;
                    long refused = 0;
                    for (int i = 1; i <= writes; i++) {
                        long token = (long) i * writers + id; // every token distinct, interleaved across writers
                        try {
                            fence.hset(key, "by", Long.toString(token), token);
                            accepted++;
                        } catch (StaleFenceException e) {
                            assertThat(e.recordedToken()).isGreaterThan(token);
                            refused++;
                        }
                    }
                    return new long[] {accepted, refused};
                };
                results.add(pool.submit(writer));
            }
            start.countDown();
            long accepted = 0;
            long refused = 0;
            for (Future<long[]> f : results) {
                long[] r = f.get(60, TimeUnit.SECONDS);
                accepted += r[0];
                refused += r[1];
            }
            long max = (long) writes * writers + writers - 1;
            System.out.println("RedisFence race: " + accepted + " accepted, " + refused + " refused");
            assertThat(accepted + refused).isEqualTo((long) writers * writes);
            assertThat(fence.highest(key)).isEqualTo(max);
            assertThat(jedis.hget(key, "by")).isEqualTo(Long.toString(max));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aKeyThatIsNotAHashOrACorruptFenceIsRedisError() {
        String string = PREFIX + "string";
        jedis.set(string, "plain");
        assertThatThrownBy(() -> fence.hset(string, "f", "v", 1)).isInstanceOf(JedisDataException.class)
                .hasMessageContaining("WRONGTYPE");
        String corrupt = PREFIX + "corrupt";
        jedis.hset(corrupt, "fence", "abc");
        assertThatThrownBy(() -> fence.hset(corrupt, "f", "v", 1)).isInstanceOf(JedisDataException.class)
                .hasMessageContaining("fence field of hash " + corrupt).hasMessageContaining("abc");
        assertThat(jedis.hget(corrupt, "f")).isNull();
    }

    @Test
    void aFenceAboveTheLargestTokenIsNotAFencingTokenAndSaysSo() {
        String key = PREFIX + "beyond-long";
        jedis.hset(key, "fence", "9999999999999999999"); // 19 digits, above Long.MAX_VALUE
        assertThatThrownBy(() -> fence.hset(key, "f", "v", Long.MAX_VALUE)).isInstanceOf(JedisDataException.class)
                .hasMessageContaining("fence field of hash " + key).hasMessageContaining("9999999999999999999");
        assertThat(jedis.hget(key, "f")).as("nothing written").isNull();
        assertThatThrownBy(() -> fence.highest(key)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("fence field of hash " + key).hasMessageContaining("9999999999999999999");
        String largest = PREFIX + "largest";
        jedis.hset(largest, "fence", Long.toString(Long.MAX_VALUE));
        assertThatThrownBy(() -> fence.hset(largest, "f", "v", Long.MAX_VALUE - 1))
                .isInstanceOf(StaleFenceException.class);
        assertThat(fence.highest(largest)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void tenThousandFieldsAreWrittenInOneFencedWrite() {
        String key = PREFIX + "wide";
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 0; i < 10_000; i++) {
            fields.put("f" + i, "v" + i);
        }
        fence.hset(key, fields, 7);
        assertThat(jedis.hlen(key)).isEqualTo(10_001);
        assertThat(jedis.hget(key, "f9999")).isEqualTo("v9999");
        assertThat(fence.highest(key)).isEqualTo(7);
        assertThatThrownBy(() -> fence.hset(key, fields, 6)).isInstanceOf(StaleFenceException.class);
    }

    @Test
    void badInputIsRefusedWithAClearMessage() {
        String key = PREFIX + "bad";
        assertThatThrownBy(() -> RedisFence.on((UnifiedJedis) null)).isInstanceOf(NullPointerException.class)
                .hasMessage("jedis client must not be null");
        assertThatThrownBy(() -> fence.hset(null, "f", "v", 1)).isInstanceOf(NullPointerException.class)
                .hasMessage("key must not be null");
        assertThatThrownBy(() -> fence.hset("", "f", "v", 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("key must not be empty");
        assertThatThrownBy(() -> fence.hset(key, (String) null, "v", 1)).isInstanceOf(NullPointerException.class)
                .hasMessage("field must not be null");
        assertThatThrownBy(() -> fence.hset(key, "f", null, 1)).isInstanceOf(NullPointerException.class)
                .hasMessage("value of field 'f' must not be null");
        assertThatThrownBy(() -> fence.hset(key, "f", "v", 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("fencing token must be at least 1, got 0");
        assertThatThrownBy(() -> fence.hset(key, "fence", "v", 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("holds the fencing token");
        assertThatThrownBy(() -> fence.hset(key, Map.of(), 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fields must not be empty");
        assertThat(jedis.exists(key)).isFalse();
    }
}
