package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.DistributedSemaphore;
import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.spi.Grant;
import io.distlock.spi.LockBackend;
import io.distlock.spi.PermitBackend;
import io.distlock.spi.Renewal;
import io.distlock.spi.StoreUri;
import io.distlock.spi.Wait;
import io.distlock.tck.fixture.BackendStores;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** SQL semaphores on each database: tokens outlive deleted rows; batch renewal reports exactly the lost permits. */
@ExtendWith(Databases.class)
class JdbcPermitsTest {

    private static void execute(String uri, String sql) throws Exception {
        JdbcSettings settings = JdbcSettings.parse(StoreUri.parse(uri));
        try (Connection c = DriverManager.getConnection(settings.driverUrl()); Statement st = c.createStatement()) {
            st.execute(sql.replace("${permits}", settings.table() + "_permits"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.distlock.jdbc.Stores#all")
    void deletedRowsNeverRepeatAToken(String label, String uri) throws Exception {
        try (LockStore store = LockStore.open(uri)) {
            DistributedSemaphore semaphore = store.semaphore("deleted", 2);
            Lease first = semaphore.acquire();
            Lease second = semaphore.acquire();
            assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
            first.release();
            second.release();
            execute(uri, "DELETE FROM ${permits}"); // an operator empties the table, counter row and all
            Lease third = semaphore.acquire();
            assertThat(third.fencingToken()).isGreaterThan(second.fencingToken());
            assertThat(semaphore.availablePermits()).isEqualTo(1);
            third.release();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.distlock.jdbc.Stores#all")
    void renewalReportsExactlyThePermitsTheStoreNoLongerHas(String label, String uri) throws Exception {
        try (LockStore store = BackendStores.open(uri)) {
            PermitBackend backend = (PermitBackend) BackendStores.backend(store, LockBackend.class);
            List<Renewal> renewals = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                Grant grant = backend.acquirePermit("batch", 5, Duration.ofSeconds(30), Wait.none());
                assertThat(grant).isNotNull();
                renewals.add(new Renewal(grant, Duration.ofSeconds(30)));
            }
            assertThat(backend.acquirePermit("batch", 5, Duration.ofSeconds(30), Wait.none())).as("full").isNull();
            assertThat(backend.renewPermits(renewals)).isEmpty();
            assertThat(backend.renewPermits(renewals)).as("again at once (same millisecond on MySQL)").isEmpty();
            Grant gone = renewals.get(3).grant();
            execute(uri, "DELETE FROM ${permits} WHERE slot > 0 AND owner_token = '" + gone.ownerToken() + "'");
            assertThat(backend.renewPermits(renewals)).containsExactly(gone);
            assertThat(backend.releasePermit(gone)).isFalse();
            assertThat(backend.heldPermits("batch")).isEqualTo(4);
            for (Renewal r : renewals) {
                if (!r.grant().equals(gone)) {
                    assertThat(backend.releasePermit(r.grant())).isTrue();
                }
            }
            assertThat(store.semaphore("batch", 5, LockOptions.defaults()).availablePermits()).isEqualTo(5);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.distlock.jdbc.Stores#all")
    void heldPermitsAreListedInTheAdminView(String label, String uri) throws Exception {
        String prefix = "admin-" + java.util.UUID.randomUUID().toString().substring(0, 8) + ":";
        try (LockStore store = LockStore.open(uri)) {
            LockOptions tenSeconds = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(10));
            Lease a1 = store.semaphore(prefix + "api", 2, tenSeconds).acquire();
            Lease a2 = store.semaphore(prefix + "api", 2, tenSeconds).acquire();
            Lease b = store.semaphore(prefix + "batch_1", 1, tenSeconds).acquire();
            List<io.distlock.LockInfo> permits = store.admin().listPermits(prefix, 10);
            assertThat(permits).extracting(io.distlock.LockInfo::name)
                    .containsExactly(prefix + "api", prefix + "api", prefix + "batch_1");
            assertThat(permits).extracting(io.distlock.LockInfo::fencingToken)
                    .containsExactly(a1.fencingToken(), a2.fencingToken(), b.fencingToken());
            assertThat(permits.get(0).timeLeft()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(10));
            assertThat(permits.get(0).owner()).contains(String.valueOf(ProcessHandle.current().pid()));
            assertThat(store.admin().listPermits(prefix + "batch_", 10)).hasSize(1);
            assertThat(store.admin().listPermits(prefix, 2)).hasSize(2);
            a1.release();
            a2.release();
            b.release();
            assertThat(store.admin().listPermits(prefix, 10)).isEmpty();
        }
    }
}
