package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import io.distlock.spi.StoreUri;
import io.distlock.tck.fixture.FreePorts;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** URI parsing and option checks: clear messages, and never a password in them. */
class RedisUriTest {

    private static RedisUri parse(String uri) {
        return RedisUri.parse(StoreUri.parse(uri));
    }

    @Test
    void parsesUserPasswordHostPortDatabaseAndOptions() {
        RedisUri uri = parse("redis://app:s3cr%40t@cache.example:6380/2?keyPrefix=orders:&timeout=500ms&poolSize=4"
                + "&restartGuard=true&maxLeaseTime=2m");
        assertThat(uri.user()).isEqualTo("app");
        assertThat(uri.password()).isEqualTo("s3cr@t");
        assertThat(uri.singleHost().getHost()).isEqualTo("cache.example");
        assertThat(uri.singleHost().getPort()).isEqualTo(6380);
        assertThat(uri.database()).isEqualTo(2);
        assertThat(uri.options().keyPrefix()).isEqualTo("orders:");
        assertThat(uri.options().timeout()).isEqualTo(Duration.ofMillis(500));
        assertThat(uri.options().poolSize()).isEqualTo(4);
        assertThat(uri.options().restartGuard()).isTrue();
        assertThat(uri.options().maxLeaseTime()).isEqualTo(Duration.ofMinutes(2));
        assertThat(uri.toString()).doesNotContain("s3cr");
    }

    @Test
    void defaultsPortAndOptions() {
        RedisUri uri = parse("redis://localhost");
        assertThat(uri.singleHost().getPort()).isEqualTo(6379);
        assertThat(uri.user()).isNull();
        assertThat(uri.password()).isNull();
        assertThat(uri.options()).isEqualTo(RedisOptions.defaults());
    }

    @Test
    void passwordOnlyUserInfo() {
        RedisUri uri = parse("redis://:topsecret@localhost:6379");
        assertThat(uri.user()).isNull();
        assertThat(uri.password()).isEqualTo("topsecret");
    }

    @Test
    void parsesHostLists() {
        RedisUri uri = parse("redis-cluster://10.0.0.1:7000, 10.0.0.2:7001,[::1]:7002");
        assertThat(uri.hosts()).extracting(h -> h.getHost() + "/" + h.getPort())
                .containsExactly("10.0.0.1/7000", "10.0.0.2/7001", "::1/7002");
        assertThatThrownBy(uri::singleHost).hasMessageContaining("lists 3 hosts");
    }

    @Test
    void rejectsBadInputWithClearMessages() {
        assertThatThrownBy(() -> parse("redis://localhost?colour=blue"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown option 'colour'");
        assertThatThrownBy(() -> parse("redis://localhost:99999"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("invalid port");
        assertThatThrownBy(() -> parse("redis://localhost?timeout=soon"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeout='soon'");
        assertThatThrownBy(() -> parse("redis://localhost?poolSize=0"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("poolSize='0'");
        assertThatThrownBy(() -> parse("redis://localhost?restartGuard=maybe"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("true or false");
        assertThatThrownBy(() -> parse("redis://localhost?keyPrefix=a{b}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keyPrefix");
        assertThatThrownBy(() -> parse("redis:localhost"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("redis://host:port");
        assertThatThrownBy(() -> parse("redis://localhost/notadb").database())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("database number");
    }

    @Test
    void messagesNeverShowThePassword() {
        assertThatThrownBy(() -> parse("redis://u:hunter2@localhost?colour=blue"))
                .hasMessageNotContaining("hunter2").hasMessageContaining("***");
        assertThatThrownBy(() -> parse("redis://hunter2@localhost"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageNotContaining("hunter2");
        int closed = FreePorts.next();
        assertThatThrownBy(() -> LockStore.open("redis://u:hunter2@127.0.0.1:" + closed + "?timeout=1s"))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageNotContaining("hunter2")
                .hasMessageContaining("127.0.0.1:" + closed);
    }

    @Test
    void keyLayoutSharesTheHashTagAndRoundTripsNames() {
        RedisKeys keys = new RedisKeys("p:");
        assertThat(keys.lock("orders:42")).isEqualTo("p:{orders:42}");
        assertThat(keys.fence("orders:42")).isEqualTo("p:{orders:42}:fence");
        assertThat(keys.lock("a}b")).isEqualTo("p:{#" + Integer.toHexString("a}b".hashCode()) + "}3:a}b");
        for (String name : new String[] {"orders:42", "a}b", "}", "{x}", "*?[]", "#1", "x}:fence"}) { // never empty
            for (RedisKeys.Kind kind : RedisKeys.Kind.values()) {
                assertThat(keys.nameOf(kind, keys.key(kind, name))).as(kind + " of " + name).isEqualTo(name);
                assertThat(redis.clients.jedis.util.JedisClusterCRC16.getSlot(keys.key(kind, name)))
                        .isEqualTo(redis.clients.jedis.util.JedisClusterCRC16.getSlot(keys.lock(name)));
            }
            assertThat(keys.nameOfChannel(keys.channel(name))).isEqualTo(name);
        }
        assertThat(keys.nameOf(RedisKeys.Kind.LOCK, keys.fence("x"))).isNull();
        assertThat(keys.nameOf(RedisKeys.Kind.SEM_HOLDERS, keys.key(RedisKeys.Kind.SEM_FENCES, "x"))).isNull();
        assertThat(keys.pattern("a*")).isEqualTo("p:{a\\**".replace("\\\\", "\\"));
    }

    @Test
    void noTwoPrefixesKindsAndNamesGiveOneKey() {
        String[] prefixes = {"", "p", "p:", "p:fence:", "p:{x}:fence".replace("{", "").replace("}", ""), "p:sem",
            "p:waiting:", "p:guard", "pguard"};
        String[] names = {"", "x", "x}", "x}:fence", "fence", ":fence", "#1", "}3:x", "{x}"};
        java.util.Map<String, String> seen = new java.util.HashMap<>();
        for (String prefix : prefixes) {
            RedisKeys keys = new RedisKeys(prefix);
            String guard = seen.put(keys.guard(), prefix + " guard");
            assertThat(guard).as("the guard of '" + prefix + "'").isNull();
            for (RedisKeys.Kind kind : RedisKeys.Kind.values()) {
                for (String name : names) {
                    String triple = "('" + prefix + "', " + kind + ", '" + name + "')";
                    assertThat(seen.put(keys.key(kind, name), triple)).as(triple).isNull();
                }
            }
        }
    }

    @Test
    void prefixesWithBracesAreRefused() {
        assertThatThrownBy(() -> new RedisKeys("a{")).isInstanceOf(IllegalArgumentException.class);
    }
}
