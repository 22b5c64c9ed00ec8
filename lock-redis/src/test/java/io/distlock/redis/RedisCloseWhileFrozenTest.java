package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * close() while the server answers nothing (SIGSTOP) and the store holds many leases: each lease's release at close
 * waits for the client timeout; the close must stay bounded (the core stops sending releases after its close wait of
 * 5 s), not take one timeout per lease.
 */
class RedisCloseWhileFrozenTest {

    private static final int LEASES = 12;

    @Test
    void closeStaysBoundedWithManyLeasesOnAFrozenServer() throws Exception {
        try (RedisServer server = RedisServer.start()) {
            LockStore store = LockStore.open(server.uri("timeout=1s"));
            for (int i = 0; i < LEASES; i++) {
                store.lock("held-" + i, LockOptions.defaults().withLeaseTime(Duration.ofSeconds(30))).acquire();
            }
            server.process().pause();
            try {
                long start = System.nanoTime();
                store.close();
                long tookMs = (System.nanoTime() - start) / 1_000_000;
                assertThat(tookMs).as("close with " + LEASES + " leases on a frozen server (timeout 1 s)")
                        .isLessThan(9_000); // the core's 5 s for releases at close, one 1 s timeout, 3 s of load
            } finally {
                server.process().resume();
            }
        }
    }
}
