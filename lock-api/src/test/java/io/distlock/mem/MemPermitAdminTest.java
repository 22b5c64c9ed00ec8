package io.distlock.mem;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.spi.LockInfo;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The mem: admin view lists held permits apart from locks, with tokens, time left and owner, never secrets. */
class MemPermitAdminTest {

    @Test
    void heldPermitsAreListedByNameAndToken() throws Exception {
        try (LockStore store = LockStore.open("mem:permit-admin-" + UUID.randomUUID())) {
            LockOptions tenSeconds = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(10));
            Lease a1 = store.semaphore("api", 2, tenSeconds).acquire();
            Lease a2 = store.semaphore("api", 2, tenSeconds).acquire();
            Lease b = store.semaphore("batch", 1, tenSeconds).acquire();
            Lease lock = store.lock("api").acquire();
            List<LockInfo> permits = store.admin().listPermits("", 10);
            assertThat(permits).extracting(LockInfo::name).containsExactly("api", "api", "batch");
            assertThat(permits).extracting(LockInfo::fencingToken)
                    .containsExactly(a1.fencingToken(), a2.fencingToken(), b.fencingToken());
            assertThat(permits.get(0).timeLeft()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(10));
            assertThat(permits.get(0).owner()).contains(String.valueOf(ProcessHandle.current().pid()));
            assertThat(store.admin().listPermits("ba", 10)).extracting(LockInfo::name).containsExactly("batch");
            assertThat(store.admin().listPermits("", 1)).hasSize(1);
            assertThat(store.admin().list("", 10)).as("locks are listed apart").extracting(LockInfo::name)
                    .containsExactly("api");
            a1.release();
            assertThat(store.admin().listPermits("api", 10)).extracting(LockInfo::fencingToken)
                    .containsExactly(a2.fencingToken());
            a2.release();
            b.release();
            lock.release();
            assertThat(store.admin().listPermits("", 10)).isEmpty();
        }
    }
}
