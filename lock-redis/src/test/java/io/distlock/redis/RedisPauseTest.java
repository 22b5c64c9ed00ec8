package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockLostException;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A server frozen with SIGSTOP (connections stay open, nothing answers) is the hard case for timeouts: acquiring
 * raises {@link StoreUnavailableException} within the configured timeout plus a margin, a held lease whose renewals
 * go unanswered is declared lost once its lease time has passed, and both recover when the server resumes.
 */
class RedisPauseTest {

    private RedisServer server;

    @BeforeEach
    void start() {
        server = RedisServer.start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void frozenServerIsUnavailableWithinTheTimeoutAndHeldLeasesAreLost() throws Exception {
        try (LockStore store = LockStore.open(server.uri("timeout=1s"))) {
            Lease held = store.lock("frozen", LockOptions.defaults().withLeaseTime(Duration.ofSeconds(2)))
                    .tryAcquire().orElseThrow();
            CountDownLatch lost = new CountDownLatch(1);
            held.onLost(e -> lost.countDown());

            server.process().pause();
            try {
                long start = System.nanoTime();
                assertThatThrownBy(() -> store.lock("during freeze").tryAcquire())
                        .isInstanceOf(StoreUnavailableException.class)
                        .hasMessageContaining("127.0.0.1:" + server.port());
                assertThat(Duration.ofNanos(System.nanoTime() - start)).as("timeout=1s, plus margin")
                        .isLessThan(Duration.ofSeconds(1 + 5));
                assertThat(lost.await(2 + 5, TimeUnit.SECONDS)).as("lease lost after its 2 s ran out").isTrue();
                assertThat(held.isValid()).isFalse();
            } finally {
                server.process().resume();
            }
            assertThatThrownBy(held::release).isInstanceOf(LockLostException.class);
            Lease after = Awaitility.await("acquire after resume").atMost(Duration.ofSeconds(20))
                    .ignoreExceptionsInstanceOf(StoreUnavailableException.class)
                    .until(() -> store.lock("after freeze").tryAcquire(), java.util.Optional::isPresent)
                    .orElseThrow();
            after.release();
        }
    }
}
