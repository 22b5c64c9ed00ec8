package io.distlock.jdbc;

import io.distlock.tck.fixture.MariaDbServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The database restarted while a lease is held, on a MariaDB server this test starts itself: during the outage
 * every acquisition raises {@link StoreUnavailableException} promptly (never "not acquired"); afterwards the row
 * survived, so the holder still holds the lock (another client cannot take it), renews and releases it normally,
 * and the next holder gets a larger fencing token.
 */
class DatabaseRestartTest {

    private static final Duration OUTAGE_BOUND = Duration.ofSeconds(20);
    private static MariaDbServer server;

    @BeforeAll
    static void startServer() throws Exception {
        Assumptions.assumeTrue(MariaDbServer.available(), "skipped: mariadbd / mariadb-install-db not installed");
        server = MariaDbServer.start();
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void outageRaisesStoreUnavailableAndTheHeldLeaseSurvivesTheRestart() throws Exception {
        String uri = server.url() + "&distlock.connectTimeoutMillis=2000";
        try (LockStore holder = LockStore.open(uri); LockStore other = LockStore.open(uri)) {
            Lease lease = holder.lock("restart:ledger", LockOptions.defaults().withLeaseTime(Duration.ofSeconds(60)))
                    .tryAcquire().orElseThrow();

            server.stop();
            try {
                long start = System.nanoTime();
                CompletableFuture<Optional<Lease>> during = CompletableFuture.supplyAsync(
                        () -> other.lock("restart:other").tryAcquire());
                assertThatThrownBy(() -> during.get(OUTAGE_BOUND.toSeconds() + 10, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class).cause()
                        .isInstanceOf(StoreUnavailableException.class)
                        .hasMessageContaining("unavailable");
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(OUTAGE_BOUND);
                assertThatThrownBy(() -> holder.lock("restart:third").tryAcquire(Duration.ofSeconds(1)))
                        .isInstanceOf(StoreUnavailableException.class);
            } finally {
                server.startProcess();
            }

            // the pools reconnect on their own; until then they say "unavailable", never "held"
            Awaitility.await("the other client can reach the database again").atMost(OUTAGE_BOUND)
                    .pollInterval(Duration.ofMillis(200)).ignoreException(StoreUnavailableException.class)
                    .until(() -> other.admin().list("restart:", 10).size() == 1);
            assertThat(other.lock("restart:ledger").tryAcquire())
                    .as("the lease held across the restart still excludes others").isEmpty();
            assertThat(lease.isValid()).isTrue();
            Awaitility.await("the holder renews after the restart").atMost(OUTAGE_BOUND)
                    .pollInterval(Duration.ofMillis(200)).ignoreException(StoreUnavailableException.class)
                    .until(() -> lease.extend(Duration.ofSeconds(60)));
            lease.release();

            Lease next = other.lock("restart:ledger").tryAcquire().orElseThrow();
            assertThat(next.fencingToken()).isGreaterThan(lease.fencingToken());
            next.release();
        }
    }
}
