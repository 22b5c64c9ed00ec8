package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LockStore;
import io.distlock.spi.Grant;
import io.distlock.spi.LockBackend;
import io.distlock.spi.Renewal;
import io.distlock.spi.StoreUri;
import io.distlock.spi.Wait;
import io.distlock.tck.fixture.BackendStores;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Another transaction keeps one lease's row locked (an operator's {@code SELECT ... FOR UPDATE}), so the renewal
 * {@code UPDATE} of the chunk that holds it blocks. The renew call must still return within a bound well inside the
 * lease, renewing every other lease of the chunk; the stuck one, whose renewal cannot be confirmed, comes back lost.
 */
@ExtendWith(Databases.class)
class RenewTimeoutTest {

    /** The renewal statement bound is a sixth of this (1 s at least): the call has two of them to spend. */
    private static final Duration LEASE = Duration.ofSeconds(6);

    static Stream<Arguments> databases() {
        return Stream.of(Arguments.of("postgresql", Databases.postgres()),
                Arguments.of("mariadb", Databases.mysql()),
                Arguments.of("mariadb-client", Databases.mariadb()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aRowLockedByAnotherTransactionDoesNotHoldUpTheOthersRenewal(String label, String database)
            throws Exception {
        String uri = Databases.withOptions(database, "distlock.table=" + Databases.uniqueTable("slow"));
        JdbcSettings settings = JdbcSettings.parse(StoreUri.parse(uri));
        try (LockStore store = BackendStores.open(uri);
                Connection operator = DriverManager.getConnection(settings.driverUrl())) {
            LockBackend backend = BackendStores.backend(store, LockBackend.class);
            Grant stuck = backend.acquire("slow:stuck", LEASE, Wait.none());
            Grant free = backend.acquire("slow:free", LEASE, Wait.none());
            operator.setAutoCommit(false);
            try (PreparedStatement lock = operator.prepareStatement(
                    "SELECT name FROM " + settings.table() + " WHERE name = ? FOR UPDATE")) {
                lock.setString(1, stuck.name());
                try (ResultSet rs = lock.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                }
            }

            long start = System.nanoTime();
            CompletableFuture<Set<Grant>> renewal = CompletableFuture.supplyAsync(() -> backend.renew(List.of(
                    new Renewal(stuck, LEASE), new Renewal(free, LEASE))));
            Set<Grant> lost = renewal.get(LEASE.toMillis() * 3, TimeUnit.MILLISECONDS);
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            operator.rollback();

            assertThat(took).as("the renew call returns within the lease").isLessThan(LEASE);
            assertThat(lost).as("only the row we could not renew is reported").containsExactly(stuck);
            assertThat(backend.renew(List.of(new Renewal(free, LEASE)))).as("the other lease was renewed").isEmpty();
            assertThat(backend.release(free)).isTrue();
        }
    }
}
