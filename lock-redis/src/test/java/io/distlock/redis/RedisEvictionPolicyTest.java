package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.LockException;
import io.distlock.LockStore;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Under an evicting {@code maxmemory-policy} Redis may drop lock keys (all have a TTL) when memory runs short, and
 * another client then acquires a held lock. Opening a store on such a server is refused with a message naming the
 * policy and the way out, unless the URI says {@code allowEviction=true}. A server that does not let the client
 * read its configuration is not checked. Each case runs on its own test-owned server.
 */
class RedisEvictionPolicyTest {

    @ParameterizedTest
    @ValueSource(strings = {"volatile-lru", "allkeys-lru", "volatile-ttl"})
    void anEvictingServerIsRefusedUnlessTheUriAllowsIt(String policy) {
        try (RedisServer server = RedisServer.start("--maxmemory", "100mb", "--maxmemory-policy", policy)) {
            assertThatThrownBy(() -> LockStore.open(server.uri("timeout=2s")))
                    .isInstanceOf(LockException.class)
                    .hasMessageContaining("maxmemory-policy " + policy)
                    .hasMessageContaining("noeviction")
                    .hasMessageContaining("allowEviction=true");
            try (LockStore store = LockStore.open(server.uri("timeout=2s&allowEviction=true"))) {
                store.lock("evictable").tryAcquire().orElseThrow().release();
            }
        }
    }

    @Test
    void aNonEvictingServerOpens() {
        try (RedisServer server = RedisServer.start("--maxmemory-policy", "noeviction");
                LockStore store = LockStore.open(server.uri("timeout=2s"))) {
            store.lock("kept").tryAcquire().orElseThrow().release();
        }
    }

    @Test
    void aServerThatHidesItsConfigurationIsNotChecked() {
        try (RedisServer server = RedisServer.start("--maxmemory-policy", "allkeys-lru", "--rename-command", "CONFIG",
                "");
                LockStore store = LockStore.open(server.uri("timeout=2s"))) {
            store.lock("unchecked").tryAcquire().orElseThrow().release();
        }
    }

    @Test
    void redlockRefusesWhenAnyNodeEvicts() {
        List<RedisServer> servers = new ArrayList<>();
        try {
            servers.add(RedisServer.start());
            servers.add(RedisServer.start("--maxmemory-policy", "volatile-random"));
            servers.add(RedisServer.start());
            String hosts = servers.stream().map(s -> "127.0.0.1:" + s.port()).collect(Collectors.joining(","));
            assertThatThrownBy(() -> LockStore.open("redlock://" + hosts))
                    .isInstanceOf(LockException.class)
                    .hasMessageContaining("maxmemory-policy volatile-random on 127.0.0.1:" + servers.get(1).port());
            try (LockStore store = LockStore.open("redlock://" + hosts + "?allowEviction=true")) {
                store.lock("redlocked").tryAcquire().orElseThrow().release();
            }
        } finally {
            servers.forEach(RedisServer::close);
        }
    }
}
