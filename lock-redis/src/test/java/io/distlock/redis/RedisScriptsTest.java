package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code SCRIPT FLUSH} empties the server's script cache: acquire, extend and release go on working. */
class RedisScriptsTest {

    private static RedisServer server;

    @BeforeAll
    static void start() {
        server = RedisServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void noScriptAfterScriptFlushIsTransparent() {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = LockStore.open(server.uri("timeout=1s"))) {
            LockOptions options = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(10));
            Lease first = store.lock("flushed", options).tryAcquire().orElseThrow();

            probe.raw().scriptFlush();
            assertThat(probe.raw().scriptExists(RedisScripts.RENEW.sha(), RedisScripts.RENEW.sha())).isFalse();
            assertThat(first.extend(Duration.ofSeconds(20))).isTrue(); // batched renew path, in a pipeline
            assertThat(probe.raw().pttl("distlock:{flushed}")).isGreaterThan(10_000);

            probe.raw().scriptFlush();
            first.release(); // release path

            probe.raw().scriptFlush();
            Lease second = store.lock("flushed", options).tryAcquire().orElseThrow(); // acquire path
            assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
            assertThat(probe.raw().scriptExists(RedisScripts.ACQUIRE.sha(), RedisScripts.ACQUIRE.sha())).isTrue();
            second.release();
        }
    }
}
