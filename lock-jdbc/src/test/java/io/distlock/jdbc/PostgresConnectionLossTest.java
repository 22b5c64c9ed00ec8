package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import io.distlock.tck.fixture.FreePorts;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.netcrusher.core.reactor.NioReactor;
import org.netcrusher.tcp.TcpCrusher;
import org.netcrusher.tcp.TcpCrusherBuilder;

/**
 * PostgreSQL out of reach while a lease is held: the clients reach the shared server only through a TCP proxy the
 * test owns, and closing the proxy cuts every connection and refuses new ones (the shared server itself is never
 * touched). During the cut, acquisitions raise {@link StoreUnavailableException}; once the path is back, the pools
 * reconnect on their own, the held lease still excludes others, renews and releases.
 */
@ExtendWith(Databases.class)
class PostgresConnectionLossTest {

    private static final Duration BOUND = Duration.ofSeconds(20);
    private NioReactor reactor;
    private TcpCrusher proxy;
    private String uri;

    @BeforeEach
    void startProxy() throws Exception {
        Matcher target = Pattern.compile("//([^/:?]+):(\\d+)/").matcher(Databases.postgres());
        assertThat(target.find()).as("host:port in " + Databases.postgres()).isTrue();
        int port = FreePorts.next();
        reactor = new NioReactor();
        proxy = TcpCrusherBuilder.builder().withReactor(reactor).withBindAddress("127.0.0.1", port)
                .withConnectAddress(target.group(1), Integer.parseInt(target.group(2))).buildAndOpen();
        String table = Databases.uniqueTable("cut");
        Databases.withOptions(Databases.postgres(), "distlock.table=" + table); // registers the table for dropping
        uri = Databases.postgres().replace(target.group(0), "//127.0.0.1:" + port + "/")
                + "&distlock.table=" + table + "&distlock.connectTimeoutMillis=2000";
    }

    @AfterEach
    void stopProxy() {
        proxy.close();
        reactor.close();
    }

    @Test
    void connectionLossRaisesStoreUnavailableAndTheHeldLeaseSurvives() throws Exception {
        try (LockStore holder = LockStore.open(uri); LockStore other = LockStore.open(uri)) {
            Lease lease = holder.lock("cut:ledger", LockOptions.defaults().withLeaseTime(Duration.ofSeconds(60)))
                    .tryAcquire().orElseThrow();

            proxy.close();
            try {
                long start = System.nanoTime();
                CompletableFuture<Optional<Lease>> during = CompletableFuture.supplyAsync(
                        () -> other.lock("cut:other").tryAcquire());
                assertThatThrownBy(() -> during.get(BOUND.toSeconds() + 10, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class).cause()
                        .isInstanceOf(StoreUnavailableException.class);
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(BOUND);
            } finally {
                proxy.open();
            }

            Awaitility.await("the other client reaches the database again").atMost(BOUND)
                    .pollInterval(Duration.ofMillis(200)).ignoreException(StoreUnavailableException.class)
                    .until(() -> other.admin().list("cut:", 10).size() == 1);
            assertThat(other.lock("cut:ledger").tryAcquire()).isEmpty();
            assertThat(lease.isValid()).isTrue();
            Awaitility.await("the holder renews after the cut").atMost(BOUND)
                    .pollInterval(Duration.ofMillis(200)).ignoreException(StoreUnavailableException.class)
                    .until(() -> lease.extend(Duration.ofSeconds(60)));
            lease.release();
            Lease next = other.lock("cut:ledger").tryAcquire().orElseThrow();
            assertThat(next.fencingToken()).isGreaterThan(lease.fencingToken());
            next.release();
        }
    }
}
